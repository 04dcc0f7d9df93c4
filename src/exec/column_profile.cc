#include "exec/column_profile.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include <xxhash.h>

#include "exec/open_addressing.h"
#include "util/text_cut.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

// The bytes of a string kept for min/max: one more than is shown, so that
// CutPrefix can cut at a character boundary.
constexpr size_t kKeptBytes = kMaxShownBytes + 1;

}  // namespace

void ColumnProfile::AddHash(uint64_t hash) {
  if (registers_.empty()) registers_.assign(size_t{1} << kRegisterBits, 0);
  const uint64_t index = hash >> (64 - kRegisterBits);
  const uint64_t rest = (hash << kRegisterBits) | (uint64_t{1} << (kRegisterBits - 1));
  const uint8_t rank = static_cast<uint8_t>(std::countl_zero(rest) + 1);
  registers_[index] = std::max(registers_[index], rank);
}

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
      AddHash(XXH3_64bits(full.data(), full.size()));
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
    uint64_t bits;
    if (column.type == ValueType::kFloat64) {
      double normalized = x == 0 ? 0.0 : (std::isnan(x) ? std::nan("") : x);
      std::memcpy(&bits, &normalized, 8);
    } else {
      bits = static_cast<uint64_t>(column.ints[r]);
    }
    AddHash(Mix64(bits));
  }
}

void ColumnProfile::Merge(const ColumnProfile& other) {
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
  if (!other.registers_.empty()) {
    if (registers_.empty()) registers_.assign(size_t{1} << kRegisterBits, 0);
    for (size_t i = 0; i < registers_.size(); ++i) registers_[i] = std::max(registers_[i], other.registers_[i]);
  }
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
  if (registers_.empty()) return 0;
  // HyperLogLog estimate with the small-range (linear counting) correction.
  const double m = static_cast<double>(registers_.size());
  double sum = 0;
  int zeros = 0;
  for (uint8_t r : registers_) {
    sum += std::ldexp(1.0, -r);
    zeros += r == 0;
  }
  const double alpha = 0.7213 / (1 + 1.079 / m);
  double estimate = alpha * m * m / sum;
  if (estimate <= 2.5 * m && zeros > 0) estimate = m * std::log(m / zeros);
  return static_cast<int64_t>(std::llround(estimate));
}

}  // namespace griffin
