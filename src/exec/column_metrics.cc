#include "exec/column_metrics.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include <xxhash.h>

#include "exec/column_kernels.h"

namespace griffin {
namespace {

// A spilled distinct key's record: hash (8), length (4), bytes.
void SpillKey(KeySpill* spill, uint64_t hash, std::string_view key, std::string* record) {
  record->assign(reinterpret_cast<const char*>(&hash), 8);
  const uint32_t length = static_cast<uint32_t>(key.size());
  record->append(reinterpret_cast<const char*>(&length), 4);
  record->append(key);
  spill->Append(hash, *record);
}

// KeySpill::RecordLength of SpillKey's records.
size_t SpilledKeyLength(const char* at, size_t available) {
  if (available < 12) return 0;
  uint32_t length;
  std::memcpy(&length, at + 8, 4);
  return 12 + size_t{length};
}

}  // namespace

ColumnMetrics::ColumnMetrics(ValueType type, MetricNeeds needs) : type_(type), needs_(needs) {
  if (needs.distinct) distinct_ = std::make_unique<UniqueSet>();
  if (needs.quantiles) {
    if (type == ValueType::kFloat64) quantile_f_ = std::make_unique<QuantileSketch<double>>();
    else quantile_i_ = std::make_unique<QuantileSketch<int64_t>>();
  }
}

void ColumnMetrics::AddValue(double x) {
  if (!std::isfinite(x)) saw_nonfinite_ = true;
  // Neumaier compensated sum.
  double t = sum_ + x;
  if (std::isfinite(t)) {
    compensation_ += std::fabs(sum_) >= std::fabs(x) ? (sum_ - t) + x : (x - t) + sum_;
  }
  sum_ = t;
  // Welford (count_ already includes x).
  double delta = x - mean_;
  mean_ += delta / static_cast<double>(count_);
  m2_ += delta * (x - mean_);
}

void ColumnMetrics::AddBatch(const TypedColumn& column, const uint8_t* malformed) {
  std::string key, record;
  for (int64_t r = 0; r < column.num_rows; ++r) {
    if (malformed && malformed[r]) continue;
    if (!column.valid[r]) {
      ++nulls_;
      continue;
    }
    ++count_;
    if (type_ == ValueType::kFloat64) {
      const double x = column.floats[r];
      if (needs_.moments) AddValue(x);
      if (needs_.extremes) {
        if (std::isnan(x) || saw_nan_) {
          saw_nan_ = true;
          min_f_ = max_f_ = std::numeric_limits<double>::quiet_NaN();
        } else if (count_ == 1) {
          min_f_ = max_f_ = x;
        } else {
          min_f_ = std::min(min_f_, x);
          max_f_ = std::max(max_f_, x);
        }
      }
      if (quantile_f_) quantile_f_->Add(x);
    } else if (type_ != ValueType::kString) {
      const int64_t x = column.ints[r];
      if (needs_.moments) {
        int_sum_ += x;
        if (needs_.spread) AddValue(static_cast<double>(x));
      }
      if (needs_.extremes) {
        if (count_ == 1) min_i_ = max_i_ = x;
        else { min_i_ = std::min(min_i_, x); max_i_ = std::max(max_i_, x); }
      }
      if (quantile_i_) quantile_i_->Add(x);
    }
    if (distinct_) {
      key.clear();
      AppendValueKey(column, r, &key);
      const uint64_t hash = XXH3_64bits(key.data(), key.size());
      if (distinct_spill_) SpillKey(distinct_spill_.get(), hash, key, &record);
      else distinct_->InsertOrFind(hash, key, 0);
    }
  }
}

void ColumnMetrics::SpillDistinct(std::unique_ptr<KeySpill> spill) {
  distinct_spill_ = std::move(spill);
  std::string record;
  distinct_->ForEach([&](uint64_t hash, std::string_view key, int64_t) { SpillKey(distinct_spill_.get(), hash, key, &record); });
  distinct_ = std::make_unique<UniqueSet>();  // empty: the keys are on disk
}

Status ColumnMetrics::FinishDistinctSpill(int64_t max_partition_bytes) {
  if (!distinct_spill_ || spilled_distinct_ >= 0) return Status::OK();
  RETURN_IF_ERROR(distinct_spill_->status());
  int64_t count = 0;
  RETURN_IF_ERROR(distinct_spill_->VisitBounded(max_partition_bytes, SpilledKeyLength, [&](std::string_view bytes) {
    UniqueSet set;
    for (size_t at = 0; at < bytes.size();) {  // VisitBounded hands whole records only
      const size_t length = SpilledKeyLength(bytes.data() + at, bytes.size() - at);
      uint64_t hash;
      std::memcpy(&hash, bytes.data() + at, 8);
      set.InsertOrFind(hash, std::string_view(bytes.data() + at + 12, length - 12), 0);
      at += length;
    }
    count += set.size();
    return Status::OK();
  }));
  spilled_distinct_ = count;
  return Status::OK();
}

double ColumnMetrics::sum() const {
  if (type_ != ValueType::kFloat64) return static_cast<double>(int_sum_);
  return std::isfinite(sum_) ? sum_ + compensation_ : sum_;
}

std::optional<double> ColumnMetrics::mean() const {
  if (count_ == 0) return std::nullopt;
  if (type_ != ValueType::kFloat64)
    return static_cast<double>(static_cast<long double>(int_sum_) / count_);
  double s = sum();
  // With infinities or NaN in the data IEEE arithmetic decides; a sum that only
  // overflowed falls back to the running (Welford) mean.
  if (saw_nonfinite_ || std::isfinite(s)) return s / static_cast<double>(count_);
  return mean_;
}

std::optional<double> ColumnMetrics::stddev() const {
  if (count_ < 2) return std::nullopt;
  return std::sqrt(m2_ / static_cast<double>(count_ - 1));
}

std::optional<double> ColumnMetrics::quantile_float(double q) const {
  return quantile_f_ ? quantile_f_->Quantile(q) : std::nullopt;
}

std::optional<int64_t> ColumnMetrics::quantile_int(double q) const {
  return quantile_i_ ? quantile_i_->Quantile(q) : std::nullopt;
}

void ColumnMetrics::Merge(const ColumnMetrics& other) {
  if (other.count_ > 0) {
    if (needs_.moments) {
      const double n_a = static_cast<double>(count_), n_b = static_cast<double>(other.count_);
      const double delta = other.mean_ - mean_;
      mean_ = count_ == 0 ? other.mean_ : mean_ + delta * n_b / (n_a + n_b);
      m2_ += other.m2_ + (count_ == 0 ? 0 : delta * delta * n_a * n_b / (n_a + n_b));
      const double t = sum_ + other.sum_;
      if (std::isfinite(t))
        compensation_ += std::fabs(sum_) >= std::fabs(other.sum_) ? (sum_ - t) + other.sum_ : (other.sum_ - t) + sum_;
      compensation_ += other.compensation_;
      sum_ = t;
      int_sum_ += other.int_sum_;
      saw_nonfinite_ = saw_nonfinite_ || other.saw_nonfinite_;
    }
    if (needs_.extremes) {
      if (type_ == ValueType::kFloat64) {
        saw_nan_ = saw_nan_ || other.saw_nan_;
        if (saw_nan_) min_f_ = max_f_ = std::numeric_limits<double>::quiet_NaN();
        else if (count_ == 0) { min_f_ = other.min_f_; max_f_ = other.max_f_; }
        else { min_f_ = std::min(min_f_, other.min_f_); max_f_ = std::max(max_f_, other.max_f_); }
      } else if (count_ == 0) {
        min_i_ = other.min_i_; max_i_ = other.max_i_;
      } else {
        min_i_ = std::min(min_i_, other.min_i_); max_i_ = std::max(max_i_, other.max_i_);
      }
    }
  }
  count_ += other.count_;
  nulls_ += other.nulls_;
  if (distinct_ && other.distinct_)
    other.distinct_->ForEach([&](uint64_t hash, std::string_view key, int64_t) { distinct_->InsertOrFind(hash, key, 0); });
  if (quantile_f_ && other.quantile_f_) quantile_f_->Merge(*other.quantile_f_);
  if (quantile_i_ && other.quantile_i_) quantile_i_->Merge(*other.quantile_i_);
}

void ColumnMetrics::Serialize(ByteWriter* out) const {
  out->I64(count_);
  out->I64(nulls_);
  out->F64(sum_);
  out->F64(compensation_);
  out->U64(static_cast<uint64_t>(static_cast<unsigned __int128>(int_sum_)));
  out->U64(static_cast<uint64_t>(static_cast<unsigned __int128>(int_sum_) >> 64));
  out->F64(mean_);
  out->F64(m2_);
  out->U8(static_cast<uint8_t>(saw_nan_ | (saw_nonfinite_ << 1)));
  out->F64(min_f_);
  out->F64(max_f_);
  out->I64(min_i_);
  out->I64(max_i_);
  out->U64(distinct_ ? static_cast<uint64_t>(distinct_->size()) : 0);
  if (distinct_) distinct_->ForEach([&](uint64_t hash, std::string_view key, int64_t) { out->U64(hash); out->Bytes(key); });
  if (quantile_f_) quantile_f_->Serialize(out);
  if (quantile_i_) quantile_i_->Serialize(out);
}

bool ColumnMetrics::Deserialize(ByteReader* in) {
  count_ = in->I64();
  nulls_ = in->I64();
  sum_ = in->F64();
  compensation_ = in->F64();
  const uint64_t low = in->U64(), high = in->U64();
  int_sum_ = static_cast<__int128>((static_cast<unsigned __int128>(high) << 64) | low);
  mean_ = in->F64();
  m2_ = in->F64();
  const uint8_t flags = in->U8();
  saw_nan_ = flags & 1;
  saw_nonfinite_ = (flags >> 1) & 1;
  min_f_ = in->F64();
  max_f_ = in->F64();
  min_i_ = in->I64();
  max_i_ = in->I64();
  const uint64_t distinct = in->Count(16);
  if (distinct > 0 && !distinct_) in->Fail();
  for (uint64_t i = 0; i < distinct && in->ok(); ++i) {
    const uint64_t hash = in->U64();
    const std::string_view key = in->Bytes();
    if (in->ok()) distinct_->InsertOrFind(hash, key, 0);
  }
  if (quantile_f_) quantile_f_->Deserialize(in);
  if (quantile_i_) quantile_i_->Deserialize(in);
  if (count_ < 0 || nulls_ < 0) in->Fail();
  return in->ok();
}

}  // namespace griffin
