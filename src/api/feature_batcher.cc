#include "api/feature_batcher.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include <arrow/memory_pool.h>

namespace griffin {
namespace {

template <typename T>
void Store(std::vector<uint8_t>* out, int64_t row, T value) {
  std::memcpy(out->data() + row * sizeof(T), &value, sizeof(T));
}

std::string Where(const RowVerdicts& verdicts, int64_t r, const FeatureColumn& column) {
  return "row " + std::to_string(verdicts.base_row + r) + ", column '" + column.name + "'";
}

// Writes the value of batch row `r` as `column.dtype` at out[row].
Status ConvertValue(const TypedColumn& typed, const FeatureColumn& column, const RowVerdicts& verdicts, int64_t r,
                    std::vector<uint8_t>* out, int64_t row) {
  if (r >= static_cast<int64_t>(typed.valid.size()) || !typed.valid[r])
    return Status::Internal(Where(verdicts, r, column) + ": a clean row has no value (the rules require one)");
  if (column.source_type == ValueType::kString) {
    const std::string_view value = typed.strings[r];
    auto it = std::find(column.vocabulary.begin(), column.vocabulary.end(), value);
    if (it == column.vocabulary.end())
      return Status::Internal(Where(verdicts, r, column) + ": a clean row's value is not in the `in` list");
    const int64_t code = it - column.vocabulary.begin();
    if (column.dtype == FeatureDType::kInt64) Store<int64_t>(out, row, code);
    else Store<int32_t>(out, row, static_cast<int32_t>(code));
    return Status::OK();
  }
  if (column.source_type == ValueType::kFloat64) {
    const double value = typed.floats[r];
    if (column.dtype == FeatureDType::kFloat64) {
      Store<double>(out, row, value);
      return Status::OK();
    }
    const float narrow = static_cast<float>(value);
    if (std::isfinite(value) && !std::isfinite(narrow))
      return Status::InputError(Where(verdicts, r, column) + ": " + std::to_string(value) +
                                " is beyond float32; ask for float64");
    Store<float>(out, row, narrow);
    return Status::OK();
  }
  const int64_t value = typed.ints[r];
  switch (column.dtype) {
    case FeatureDType::kInt64: Store<int64_t>(out, row, value); break;
    case FeatureDType::kInt32:
      if (value < std::numeric_limits<int32_t>::min() || value > std::numeric_limits<int32_t>::max())
        return Status::InputError(Where(verdicts, r, column) + ": " + std::to_string(value) +
                                  " does not fit int32; ask for int64 or a float dtype");
      Store<int32_t>(out, row, static_cast<int32_t>(value));
      break;
    case FeatureDType::kFloat64: Store<double>(out, row, static_cast<double>(value)); break;
    case FeatureDType::kFloat32: Store<float>(out, row, static_cast<float>(value)); break;
    case FeatureDType::kBool: Store<uint8_t>(out, row, value != 0); break;
  }
  return Status::OK();
}

}  // namespace

FeatureBatcher::FeatureBatcher(std::vector<FeatureColumn> columns, const BatcherOptions& options)
    : columns_(std::move(columns)), options_(options), rng_(options.seed) {
  for (const FeatureColumn& column : columns_) widths_.push_back(FeatureDTypeWidth(column.dtype));
  staged_.columns.resize(columns_.size());
  pool_.columns.resize(columns_.size());
  if (options_.batch_size < 1) options_.batch_size = 1;
}

uint64_t FeatureBatcher::Below(uint64_t n) {
  // Lemire's multiply-shift: deterministic for the seed (std::uniform_int_distribution is not portable).
  return static_cast<uint64_t>((static_cast<unsigned __int128>(rng_()) * n) >> 64);
}

Status FeatureBatcher::Stage(const RowVerdicts& verdicts) {
  if (verdicts.columns == nullptr) return Status::Internal("row verdicts without typed columns");
  const int64_t num_rows = verdicts.batch->num_rows;
  std::vector<int32_t> clean;
  clean.reserve(num_rows);
  for (int64_t r = 0; r < num_rows; ++r)
    if (!verdicts.bad[r]) clean.push_back(static_cast<int32_t>(r));
  staged_.rows = static_cast<int64_t>(clean.size());
  for (size_t c = 0; c < columns_.size(); ++c) {
    const FeatureColumn& column = columns_[c];
    if (column.slot >= static_cast<int>(verdicts.columns->size()))
      return Status::Internal("feature column '" + column.name + "' has no typed column");
    const TypedColumn& typed = (*verdicts.columns)[column.slot];
    std::vector<uint8_t>& out = staged_.columns[c];
    out.resize(clean.size() * widths_[c]);
    for (size_t i = 0; i < clean.size(); ++i)
      RETURN_IF_ERROR(ConvertValue(typed, column, verdicts, clean[i], &out, static_cast<int64_t>(i)));
  }
  rows_added_ += staged_.rows;
  return Status::OK();
}

Status FeatureBatcher::StartBatch() {
  current_.clear();
  for (int width : widths_) {
    auto buffer = arrow::AllocateResizableBuffer(options_.batch_size * width);   // 64-byte aligned
    if (!buffer.ok()) return Status::Internal("allocating a batch: " + buffer.status().message());
    current_.push_back(std::move(*buffer));
  }
  current_rows_ = 0;
  return Status::OK();
}

Status FeatureBatcher::EmitCurrent(const Emit& emit) {
  FeatureBatch batch;
  batch.rows = current_rows_;
  for (size_t c = 0; c < current_.size(); ++c) {
    auto status = current_[c]->Resize(current_rows_ * widths_[c], /*shrink_to_fit=*/false);
    if (!status.ok()) return Status::Internal(status.message());
    batch.columns.push_back(std::move(current_[c]));
  }
  current_.clear();
  rows_emitted_ += current_rows_;
  current_rows_ = 0;
  return emit(std::move(batch));
}

Status FeatureBatcher::Put(const Block& block, int64_t row, const Emit& emit) {
  if (current_.empty()) RETURN_IF_ERROR(StartBatch());
  for (size_t c = 0; c < columns_.size(); ++c)
    std::memcpy(current_[c]->mutable_data() + current_rows_ * widths_[c], block.columns[c].data() + row * widths_[c],
                widths_[c]);
  if (++current_rows_ == options_.batch_size) return EmitCurrent(emit);
  return Status::OK();
}

Status FeatureBatcher::Add(const RowVerdicts& verdicts, const Emit& emit) {
  RETURN_IF_ERROR(Stage(verdicts));
  if (options_.shuffle_buffer <= 1) {
    for (int64_t row = 0; row < staged_.rows;) {
      if (current_.empty()) RETURN_IF_ERROR(StartBatch());
      const int64_t n = std::min(staged_.rows - row, options_.batch_size - current_rows_);
      for (size_t c = 0; c < columns_.size(); ++c)
        std::memcpy(current_[c]->mutable_data() + current_rows_ * widths_[c],
                    staged_.columns[c].data() + row * widths_[c], n * widths_[c]);
      current_rows_ += n;
      row += n;
      if (current_rows_ == options_.batch_size) RETURN_IF_ERROR(EmitCurrent(emit));
    }
    return Status::OK();
  }
  const int64_t capacity = options_.shuffle_buffer;
  for (int64_t row = 0; row < staged_.rows; ++row) {
    if (pool_.rows < capacity) {
      for (size_t c = 0; c < columns_.size(); ++c) {
        auto& column = pool_.columns[c];
        const uint8_t* value = staged_.columns[c].data() + row * widths_[c];
        column.insert(column.end(), value, value + widths_[c]);
      }
      ++pool_.rows;
      continue;
    }
    const int64_t pick = static_cast<int64_t>(Below(capacity));
    RETURN_IF_ERROR(Put(pool_, pick, emit));
    for (size_t c = 0; c < columns_.size(); ++c)
      std::memcpy(pool_.columns[c].data() + pick * widths_[c], staged_.columns[c].data() + row * widths_[c],
                  widths_[c]);
  }
  return Status::OK();
}

Status FeatureBatcher::Finish(const Emit& emit) {
  // Drain the shuffle buffer in random order (swap the pick with the last row).
  while (pool_.rows > 0) {
    const int64_t pick = static_cast<int64_t>(Below(pool_.rows));
    RETURN_IF_ERROR(Put(pool_, pick, emit));
    const int64_t last = pool_.rows - 1;
    for (size_t c = 0; c < columns_.size(); ++c) {
      uint8_t* data = pool_.columns[c].data();
      std::memcpy(data + pick * widths_[c], data + last * widths_[c], widths_[c]);
      pool_.columns[c].resize(last * widths_[c]);
    }
    pool_.rows = last;
  }
  if (current_rows_ == 0) return Status::OK();
  if (options_.drop_remainder) {
    rows_dropped_ += current_rows_;
    current_.clear();
    current_rows_ = 0;
    return Status::OK();
  }
  return EmitCurrent(emit);
}

}  // namespace griffin
