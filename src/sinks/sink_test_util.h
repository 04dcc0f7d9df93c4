// Helpers shared by the sinks/ tests (not part of the library).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "io/input_source.h"
#include "io/io_test_util.h"
#include "sinks/row_sink.h"

namespace griffin::testing {

// Errors by input row (0-based over all batches). Malformed rows get a
// "malformed" error with their reason unless listed.
using RowErrors = std::map<int64_t, std::vector<RowError>>;

// The verdicts of one batch, owning the `bad` bytes they point to.
struct OwnedVerdicts {
  std::vector<uint8_t> bad;
  RowVerdicts verdicts;
};

inline std::unique_ptr<OwnedVerdicts> MakeVerdicts(const Batch& batch, int64_t base_row, const RowErrors& errors) {
  auto owned = std::make_unique<OwnedVerdicts>();
  owned->bad.assign(batch.num_rows, 0);
  RowVerdicts& v = owned->verdicts;
  v.batch = &batch;
  v.base_row = base_row;
  v.error_offsets.push_back(0);
  size_t next_malformed = 0;
  for (int64_t r = 0; r < batch.num_rows; ++r) {
    auto it = errors.find(base_row + r);
    std::vector<RowError> row_errors;
    if (it != errors.end()) row_errors = it->second;
    if (batch.IsMalformed(r) && it == errors.end())
      row_errors.push_back({"malformed", batch.malformed_records[next_malformed].reason});
    if (batch.IsMalformed(r)) ++next_malformed;
    if (row_errors.empty()) continue;
    owned->bad[r] = 1;
    v.bad_rows.push_back(static_cast<int32_t>(r));
    for (RowError& e : row_errors) v.errors.push_back(std::move(e));
    v.error_offsets.push_back(static_cast<uint32_t>(v.errors.size()));
  }
  v.bad = owned->bad.data();
  return owned;
}

// Every batch of an input file, read with the project's reader.
inline std::vector<std::shared_ptr<Batch>> ReadBatches(const std::string& path, const ReadOptions& options,
                                                       int input_index = 0) {
  std::vector<std::shared_ptr<Batch>> batches;
  auto source = OpenInput(path, options, input_index);
  EXPECT_TRUE(source.ok()) << source.status().message();
  if (!source.ok()) return batches;
  for (;;) {
    auto chunk = (*source)->NextChunk();
    EXPECT_TRUE(chunk.ok()) << chunk.status().message();
    if (!chunk.ok() || *chunk == nullptr) break;
    auto batch = (*chunk)->Decode();
    EXPECT_TRUE(batch.ok()) << batch.status().message();
    if (!batch.ok()) break;
    batches.push_back(*batch);
  }
  return batches;
}

// Writes `batches` through a new sink at `path` and commits it.
inline Result<OutputSummary> WriteOutput(const std::string& path, SinkKind kind, const SinkOptions& options,
                                         const std::vector<std::shared_ptr<Batch>>& batches,
                                         const RowErrors& errors) {
  ASSIGN_OR_RETURN(auto sink, OpenRowSink(path, kind, options));
  int64_t base = 0;
  for (const auto& batch : batches) {
    auto owned = MakeVerdicts(*batch, base, errors);
    RETURN_IF_ERROR(sink->Write(owned->verdicts));
    base += batch->num_rows;
  }
  return sink->Commit();
}

inline std::string ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// The names in a directory, sorted.
inline std::vector<std::string> ListDir(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

// Every row of `batches` as cells ("<null>" for a null, "<malformed>" alone for
// a malformed row), for comparing a read-back output with its input.
inline std::vector<std::vector<std::string>> TextCells(const std::vector<std::shared_ptr<Batch>>& batches,
                                                       size_t num_columns) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& batch : batches) {
    for (int64_t r = 0; r < batch->num_rows; ++r) {
      std::vector<std::string> cells;
      for (size_t c = 0; c < num_columns; ++c) {
        const TextColumn& text = batch->columns[c].text;
        cells.push_back(text.is_null[r] ? "<null>" : std::string(text.values[r]));
      }
      rows.push_back(std::move(cells));
    }
  }
  return rows;
}

}  // namespace griffin::testing

#include <arrow/api.h>

namespace griffin::testing {

// A typed batch of `rows` rows starting at `first`: id int64, score double,
// name utf8, ts timestamp[us, UTC]; every third row (first + i) % 3 == 1 has
// nulls in score and name, and id is null when (first + i) % 5 == 4.
inline std::shared_ptr<Batch> TypedBatch(int64_t first, int64_t rows, int input_index = 0) {
  arrow::Int64Builder ids;
  arrow::DoubleBuilder scores;
  arrow::StringBuilder names;
  arrow::TimestampBuilder stamps(arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"), arrow::default_memory_pool());
  for (int64_t i = first; i < first + rows; ++i) {
    EXPECT_TRUE((i % 5 == 4 ? ids.AppendNull() : ids.Append(i * 10)).ok());
    EXPECT_TRUE((i % 3 == 1 ? scores.AppendNull() : scores.Append(i + 0.25)).ok());
    EXPECT_TRUE((i % 3 == 1 ? names.AppendNull() : names.Append(i % 2 ? "n," + std::to_string(i) : "n\"" + std::to_string(i))).ok());
    EXPECT_TRUE(stamps.Append(1704164645000000 + i * 1000001).ok());
  }
  auto batch = std::make_shared<Batch>();
  batch->num_rows = rows;
  batch->input_index = input_index;
  std::vector<std::pair<std::string, arrow::ArrayBuilder*>> builders = {
      {"id", &ids}, {"score", &scores}, {"name", &names}, {"ts", &stamps}};
  for (auto& [name, builder] : builders) {
    BatchColumn column;
    column.name = name;
    EXPECT_TRUE(builder->Finish(&column.array).ok());
    batch->columns.push_back(std::move(column));
  }
  return batch;
}

}  // namespace griffin::testing
