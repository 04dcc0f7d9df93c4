#include "exec/column_profile.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include <xxhash.h>

#include "exec/open_addressing.h"
#include "util/float_key.h"
#include "util/text_cut.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

// The bytes of a string kept for min/max: one more than is shown, so that
// CutPrefix can cut at a character boundary.
constexpr size_t kKeptBytes = kMaxShownBytes + 1;

// The hash a valid value is counted distinct by: equal typed values, equal
// hashes (float64 -0.0 is 0.0 and every NaN is one value).
uint64_t ValueHash(const TypedColumn& column, int64_t r) {
  if (column.type == ValueType::kString) {
    const std::string_view s = column.strings[r];
    return XXH3_64bits(s.data(), s.size());
  }
  return Mix64(column.type == ValueType::kFloat64 ? FloatKeyBits(column.floats[r])
                                                 : static_cast<uint64_t>(column.ints[r]));
}

}  // namespace

void ColumnProfile::AddBatch(const TypedColumn& column, const uint8_t* malformed) {
  type_ = column.type;
  for (int64_t r = 0; r < column.num_rows; ++r) {
    if (malformed && malformed[r]) continue;
    if (!column.valid[r]) {
      ++nulls_;
      continue;
    }
    ++count_;
    const bool first = !has_extremes_;
    has_extremes_ = true;
    if (column.type == ValueType::kString) {
      const std::string_view full = column.strings[r];
      const std::string_view s = full.substr(0, kKeptBytes);
      if (first || s < min_s_) { min_s_.assign(s); min_s_size_ = static_cast<int64_t>(full.size()); }
      if (first || s > max_s_) { max_s_.assign(s); max_s_size_ = static_cast<int64_t>(full.size()); }
      distinct_.Add(ValueHash(column, r));
      continue;
    }
    double x;
    if (column.type == ValueType::kFloat64) {
      x = column.floats[r];
      if (first) min_f_ = max_f_ = x;
      else if (!std::isnan(x)) { min_f_ = std::min(min_f_, x); max_f_ = std::max(max_f_, x); }
    } else {
      const int64_t v = column.ints[r];
      x = static_cast<double>(v);
      if (first) min_i_ = max_i_ = v;
      else { min_i_ = std::min(min_i_, v); max_i_ = std::max(max_i_, v); }
    }
    const double delta = x - mean_;
    mean_ += delta / static_cast<double>(count_);
    m2_ += delta * (x - mean_);
    distinct_.Add(ValueHash(column, r));
  }
}

void ColumnProfile::Merge(const ColumnProfile& other, const TypedColumn& other_column,
                          const uint8_t* other_malformed) {
  if (other.count_ == 0) {
    nulls_ += other.nulls_;
    return;
  }
  type_ = other.type_;
  if (!has_extremes_) {
    min_i_ = other.min_i_; max_i_ = other.max_i_; min_f_ = other.min_f_; max_f_ = other.max_f_;
    min_s_ = other.min_s_; max_s_ = other.max_s_;
    min_s_size_ = other.min_s_size_; max_s_size_ = other.max_s_size_;
  } else if (other.has_extremes_) {
    min_i_ = std::min(min_i_, other.min_i_); max_i_ = std::max(max_i_, other.max_i_);
    if (std::isnan(min_f_)) min_f_ = other.min_f_; else if (!std::isnan(other.min_f_)) min_f_ = std::min(min_f_, other.min_f_);
    if (std::isnan(max_f_)) max_f_ = other.max_f_; else if (!std::isnan(other.max_f_)) max_f_ = std::max(max_f_, other.max_f_);
    if (other.min_s_ < min_s_) { min_s_ = other.min_s_; min_s_size_ = other.min_s_size_; }
    if (other.max_s_ > max_s_) { max_s_ = other.max_s_; max_s_size_ = other.max_s_size_; }
  }
  has_extremes_ = has_extremes_ || other.has_extremes_;
  // Chan et al.: combine (n, mean, M2) of two parts.
  const double n_a = static_cast<double>(count_), n_b = static_cast<double>(other.count_);
  const double delta = other.mean_ - mean_;
  const double n = n_a + n_b;
  mean_ = count_ == 0 ? other.mean_ : mean_ + delta * n_b / n;
  m2_ = m2_ + other.m2_ + delta * delta * n_a * n_b / n;
  count_ += other.count_;
  nulls_ += other.nulls_;
  std::vector<uint64_t> other_hashes;  // only when the batch kept too many to hold them
  if (distinct_.NeedsHashesOf(other.distinct_)) {
    other_hashes.reserve(static_cast<size_t>(other.count_));
    for (int64_t r = 0; r < other_column.num_rows; ++r)
      if (other_column.valid[r] && !(other_malformed && other_malformed[r]))
        other_hashes.push_back(ValueHash(other_column, r));
  }
  distinct_.Merge(other.distinct_, other_hashes);
}

std::optional<std::string> ColumnProfile::MinText() const {
  if (!has_extremes_) return std::nullopt;
  switch (type_) {
    case ValueType::kString: return CutPrefix(min_s_, static_cast<size_t>(min_s_size_));
    case ValueType::kFloat64: return FormatDouble(min_f_);
    case ValueType::kDate: return FormatDate(min_i_);
    case ValueType::kTimestamp: return FormatTimestamp(min_i_);
    case ValueType::kBool: return std::string(min_i_ ? "true" : "false");
    default: return std::to_string(min_i_);
  }
}

std::optional<std::string> ColumnProfile::MaxText() const {
  if (!has_extremes_) return std::nullopt;
  switch (type_) {
    case ValueType::kString: return CutPrefix(max_s_, static_cast<size_t>(max_s_size_));
    case ValueType::kFloat64: return FormatDouble(max_f_);
    case ValueType::kDate: return FormatDate(max_i_);
    case ValueType::kTimestamp: return FormatTimestamp(max_i_);
    case ValueType::kBool: return std::string(max_i_ ? "true" : "false");
    default: return std::to_string(max_i_);
  }
}

std::optional<double> ColumnProfile::mean() const {
  if (count_ == 0 || type_ == ValueType::kString) return std::nullopt;
  return mean_;
}

std::optional<double> ColumnProfile::stddev() const {
  if (count_ < 2 || type_ == ValueType::kString) return std::nullopt;
  return std::sqrt(m2_ / static_cast<double>(count_ - 1));
}

int64_t ColumnProfile::distinct() const {
  // An estimate can exceed the values there are; the count cannot.
  return std::min(distinct_.Count(), count_);
}

}  // namespace griffin
