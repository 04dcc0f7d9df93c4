// Turns the clean rows of validated batches into fixed-size training batches:
// one contiguous, 64-byte aligned buffer per feature column (Arrow's memory
// pool), in the column's FeatureDType. Optionally shuffles through a buffer
// of `shuffle_buffer` rows (as tf.data's shuffle: each output row is drawn
// uniformly from the buffer and replaced by the next incoming row; at the end
// the buffer drains in random order). Deterministic for a given seed, input
// and batch sizes.
//
// Not thread-safe: one producer calls Add() per validated batch, in input
// order, then Finish().
//
//   FeatureBatcher batcher(columns, {.batch_size = 128});
//   RETURN_IF_ERROR(batcher.Add(verdicts, emit));   // emit(FeatureBatch) per full batch
//   RETURN_IF_ERROR(batcher.Finish(emit));
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include <arrow/buffer.h>

#include "api/feature_columns.h"
#include "sinks/row_sink.h"
#include "util/status.h"

namespace griffin {

struct FeatureBatch {
  int64_t rows = 0;
  // Per FeatureColumn: rows x FeatureDTypeWidth(dtype) bytes, native endian.
  std::vector<std::shared_ptr<arrow::Buffer>> columns;
};

struct BatcherOptions {
  int64_t batch_size = 128;
  int64_t shuffle_buffer = 0;   // 0 or 1: input order
  uint64_t seed = 0;
  bool drop_remainder = true;   // false: the last batch may be short
};

class FeatureBatcher {
 public:
  using Emit = std::function<Status(FeatureBatch)>;

  FeatureBatcher(std::vector<FeatureColumn> columns, const BatcherOptions& options);

  // Adds the rows of `verdicts` that are clean (bad[r] == 0). Needs
  // verdicts.columns. InputError for a value that does not fit its dtype
  // (int32 overflow, a finite float64 beyond float32), naming row and column.
  Status Add(const RowVerdicts& verdicts, const Emit& emit);
  // Emits what is buffered: full batches, then (unless drop_remainder) the rest.
  Status Finish(const Emit& emit);

  int64_t rows_added() const { return rows_added_; }
  int64_t rows_emitted() const { return rows_emitted_; }
  int64_t rows_dropped() const { return rows_dropped_; }   // the remainder, when dropped

 private:
  // Per column, `rows` values in the output dtype, back to back.
  struct Block {
    std::vector<std::vector<uint8_t>> columns;
    int64_t rows = 0;
  };
  Status Stage(const RowVerdicts& verdicts);
  Status StartBatch();
  // Appends row `row` of `block` to the batch being filled; emits it when full.
  Status Put(const Block& block, int64_t row, const Emit& emit);
  Status EmitCurrent(const Emit& emit);
  uint64_t Below(uint64_t n);   // uniform in [0, n)

  std::vector<FeatureColumn> columns_;
  std::vector<int> widths_;
  BatcherOptions options_;
  std::mt19937_64 rng_;
  Block staged_;                 // this Add()'s clean rows, converted
  Block pool_;                   // the shuffle buffer
  std::vector<std::shared_ptr<arrow::ResizableBuffer>> current_;
  int64_t current_rows_ = 0;
  int64_t rows_added_ = 0, rows_emitted_ = 0, rows_dropped_ = 0;
};

}  // namespace griffin
