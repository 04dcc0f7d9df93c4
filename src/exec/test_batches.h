// Test helpers: small Batches built from literals.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/batch.h"

namespace griffin::testing {

// A text column: nullopt entries are null. The strings are owned by the batch.
inline void AddTextColumn(Batch* batch, const std::string& name,
                          const std::vector<std::optional<std::string>>& values,
                          const std::vector<JsonKind>& json_kinds = {}) {
  auto storage = std::make_shared<std::vector<std::string>>();
  storage->reserve(values.size());
  BatchColumn column;
  column.name = name;
  for (const auto& value : values) {
    storage->push_back(value.value_or(""));
    column.text.is_null.push_back(!value.has_value());
  }
  for (const std::string& s : *storage) column.text.values.emplace_back(s);
  column.text.json_kinds = json_kinds;
  batch->owned_memory.push_back(storage);
  batch->num_rows = static_cast<int64_t>(values.size());
  batch->columns.push_back(std::move(column));
}

inline std::shared_ptr<Batch> TextBatch(const std::string& name,
                                        const std::vector<std::optional<std::string>>& values) {
  auto batch = std::make_shared<Batch>();
  AddTextColumn(batch.get(), name, values);
  return batch;
}

}  // namespace griffin::testing

#include "io/input_source.h"

namespace griffin::testing {

// An InputSource over prepared batches (decoding is a no-op).
class VectorSource : public InputSource {
 public:
  explicit VectorSource(std::vector<std::shared_ptr<Batch>> batches) : batches_(std::move(batches)) {}
  Result<std::unique_ptr<Chunk>> NextChunk() override {
    if (next_ == batches_.size()) return std::unique_ptr<Chunk>();
    return std::unique_ptr<Chunk>(new ReadyChunk(batches_[next_++]));
  }
  int64_t bytes_read() const override { return 0; }
  int64_t total_bytes() const override { return 0; }

 private:
  struct ReadyChunk : Chunk {
    explicit ReadyChunk(std::shared_ptr<Batch> b) : batch(std::move(b)) {}
    Result<std::shared_ptr<Batch>> Decode() override { return batch; }
    std::shared_ptr<Batch> batch;
  };
  std::vector<std::shared_ptr<Batch>> batches_;
  size_t next_ = 0;
};

// Splits rows of one-column-per-entry text data into batches of `batch_rows`.
inline std::vector<std::shared_ptr<Batch>> SplitRows(
    const std::vector<std::string>& names, const std::vector<std::vector<std::optional<std::string>>>& rows,
    size_t batch_rows) {
  std::vector<std::shared_ptr<Batch>> batches;
  for (size_t start = 0; start < rows.size(); start += batch_rows) {
    auto batch = std::make_shared<Batch>();
    size_t end = std::min(rows.size(), start + batch_rows);
    for (size_t c = 0; c < names.size(); ++c) {
      std::vector<std::optional<std::string>> values;
      for (size_t r = start; r < end; ++r) values.push_back(rows[r][c]);
      AddTextColumn(batch.get(), names[c], values);
    }
    batches.push_back(batch);
  }
  return batches;
}

}  // namespace griffin::testing
