// Per-column metrics recorded in the run store for every run (count, nulls,
// min, max, mean, stddev, distinct). Computed per batch by the workers and
// merged in order; unlike table checks these are a profile, not a verdict, so
// mean/stddev are merged per batch (Chan et al.) and may differ in the last
// bits between batch sizes. Distinct is exact up to 100,000 distinct values,
// then a HyperLogLog estimate (distinct_counter.h), and never more than the
// count of non-null values. String min/max keep only the
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

#include "exec/distinct_counter.h"
#include "io/typed_column.h"

namespace griffin {

class ColumnProfile {
 public:
  // Adds the valid values of `column` (rows with malformed[r] skipped).
  void AddBatch(const TypedColumn& column, const uint8_t* malformed);
  // Appends `other`, the next batch's profile, in order. `other_column` and
  // `other_malformed` are what `other` was computed from (AddBatch's
  // arguments): the distinct count may read that batch's values again.
  void Merge(const ColumnProfile& other, const TypedColumn& other_column,
             const uint8_t* other_malformed);

  int64_t count() const { return count_; }
  int64_t nulls() const { return nulls_; }
  std::optional<std::string> MinText() const;
  std::optional<std::string> MaxText() const;
  std::optional<double> mean() const;
  std::optional<double> stddev() const;
  // Exact up to DistinctCounter::kExactLimit distinct values (distinct_exact()),
  // an estimate beyond, clamped to count(). The store records a
  // distinct_count table check's exact count instead where there is one.
  int64_t distinct() const;
  bool distinct_exact() const { return distinct_.exact(); }

 private:

  ValueType type_ = ValueType::kString;
  int64_t count_ = 0, nulls_ = 0;
  bool has_extremes_ = false;
  int64_t min_i_ = 0, max_i_ = 0;
  double min_f_ = 0, max_f_ = 0;
  std::string min_s_, max_s_;      // at most kMaxShownBytes + 1 bytes each
  int64_t min_s_size_ = 0, max_s_size_ = 0;  // the full size of the value each came from
  double mean_ = 0, m2_ = 0;       // Welford over the numeric values
  DistinctCounter distinct_;
};

}  // namespace griffin
