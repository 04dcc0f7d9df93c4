// Helpers shared by the io/ tests (not part of the library).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "io/batch.h"
#include "io/input_source.h"
#include "io/text_chunker.h"

namespace griffin::testing {

// A fresh directory, removed with its contents at scope exit.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "griffin_io_XXXXXX").string();
    path_ = ::mkdtemp(pattern.data());
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string Path(const std::string& name) const { return path_ + "/" + name; }
  std::string Write(const std::string& name, const std::string& bytes) const {
    std::string file = Path(name);
    std::ofstream(file, std::ios::binary) << bytes;
    return file;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// A TextSpan over a private, padded copy of `text` holding `records` records.
inline TextSpan MakeSpan(const std::string& text, int64_t records) {
  auto copy = std::make_shared<std::string>(text + std::string(kTextPadding, '\0'));
  TextSpan span;
  span.text = std::string_view(copy->data(), text.size());
  span.num_records = records;
  span.owner = copy;
  return span;
}

// Every row of some batches, as text: a value, "<null>" or, for a malformed
// row, "<malformed: REASON>" as its only cell.
struct Rows {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> raw;
  std::vector<int> input_index;
};

inline void AppendRows(const Batch& batch, Rows* rows) {
  if (rows->columns.empty())
    for (const BatchColumn& column : batch.columns) rows->columns.push_back(column.name);
  size_t next_malformed = 0;
  for (int64_t row = 0; row < batch.num_rows; ++row) {
    std::vector<std::string> cells;
    if (batch.IsMalformed(row)) {
      EXPECT_LT(next_malformed, batch.malformed_records.size());
      EXPECT_EQ(batch.malformed_records[next_malformed].row_in_batch, row);
      cells.push_back("<malformed: " + batch.malformed_records[next_malformed++].reason + ">");
      for (const BatchColumn& column : batch.columns) EXPECT_TRUE(column.text.is_null[row]);
    } else {
      for (const BatchColumn& column : batch.columns) {
        EXPECT_EQ(column.text.values.size(), static_cast<size_t>(batch.num_rows));
        cells.push_back(column.text.is_null[row] ? "<null>" : std::string(column.text.values[row]));
      }
    }
    rows->cells.push_back(std::move(cells));
    if (!batch.raw_records.empty()) rows->raw.emplace_back(batch.raw_records[row]);
    rows->input_index.push_back(batch.input_index);
  }
  EXPECT_EQ(next_malformed, batch.malformed_records.size());
}

// Calls visit(batch) for each batch of a source, to its end; fails the test
// on an error.
inline void ForEachBatch(InputSource& source, const std::function<void(const Batch&)>& visit) {
  for (;;) {
    auto chunk = source.NextChunk();
    EXPECT_TRUE(chunk.ok()) << chunk.status().message();
    if (!chunk.ok() || *chunk == nullptr) return;
    auto batch = (*chunk)->Decode();
    EXPECT_TRUE(batch.ok()) << batch.status().message();
    if (!batch.ok()) return;
    visit(**batch);
  }
}

// Reads a source to its end; fails the test on an error.
inline Rows ReadAll(InputSource& source, int64_t* num_batches = nullptr) {
  Rows rows;
  int64_t batches = 0;
  ForEachBatch(source, [&](const Batch& batch) {
    ++batches;
    AppendRows(batch, &rows);
  });
  if (num_batches) *num_batches = batches;
  return rows;
}

// The first error a source gives, or "" when it reads to the end.
inline std::string FirstError(InputSource& source) {
  for (;;) {
    auto chunk = source.NextChunk();
    if (!chunk.ok()) return chunk.status().message();
    if (*chunk == nullptr) return "";
    auto batch = (*chunk)->Decode();
    if (!batch.ok()) return batch.status().message();
  }
}

}  // namespace griffin::testing
