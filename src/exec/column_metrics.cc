#include "exec/column_metrics.h"

#include <cmath>
#include <limits>
#include <string>

#include <xxhash.h>

#include "exec/column_kernels.h"

namespace griffin {

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
  std::string key;
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
        AddValue(static_cast<double>(x));
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
      distinct_->InsertOrFind(XXH3_64bits(key.data(), key.size()), key, 0);
    }
  }
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

}  // namespace griffin
