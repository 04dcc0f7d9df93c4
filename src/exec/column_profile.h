// Per-column metrics recorded in the run store for every run (count, nulls,
// min, max, mean, stddev, distinct). Computed per batch by the workers and
// merged in order; unlike table checks these are a profile, not a verdict, so
// mean/stddev are merged per batch (Chan et al.) and may differ in the last
// bits between batch sizes. Distinct is a HyperLogLog estimate (2^12
// registers, ~1.6% standard error; linear counting below ~10,000 values,
// where it is within a fraction of a percent). String min/max keep only the
// first kMaxShownBytes of a value (util/text_cut.h): the prefix of the min
// (max) is exact, since cutting keeps the order; a longer extreme is shown
// cut, with the full length of the first value seen with that prefix.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "exec/typed_column.h"

namespace griffin {

class ColumnProfile {
 public:
  static constexpr int kRegisterBits = 12;

  // Adds the valid values of `column` (rows with malformed[r] skipped).
  void AddBatch(const TypedColumn& column, const uint8_t* malformed);
  // Appends `other` (the next batch's profile, in order).
  void Merge(const ColumnProfile& other);

  int64_t count() const { return count_; }
  int64_t nulls() const { return nulls_; }
  std::optional<std::string> MinText() const;
  std::optional<std::string> MaxText() const;
  std::optional<double> mean() const;
  std::optional<double> stddev() const;
  int64_t distinct() const;
  // Always an estimate; the store records an exact count instead where a
  // distinct_count table check computed one.

 private:
  void AddHash(uint64_t hash);

  ValueType type_ = ValueType::kString;
  int64_t count_ = 0, nulls_ = 0;
  bool has_extremes_ = false;
  int64_t min_i_ = 0, max_i_ = 0;
  double min_f_ = 0, max_f_ = 0;
  std::string min_s_, max_s_;      // at most kMaxShownBytes + 1 bytes each
  int64_t min_s_size_ = 0, max_s_size_ = 0;  // the full size of the value each came from
  double mean_ = 0, m2_ = 0;       // Welford over the numeric values
  std::vector<uint8_t> registers_;  // HLL, allocated on first use
};

}  // namespace griffin
