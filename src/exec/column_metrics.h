// Whole-column aggregates for table checks, accumulated in row order so the
// result never depends on threads or batch size: counts, compensated sum
// (Neumaier), mean/variance (Welford), min/max with NaN propagating, exact
// distinct count, and quantiles.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "exec/key_spill.h"
#include "exec/quantile_sketch.h"
#include "exec/unique_set.h"
#include "io/typed_column.h"
#include "util/byte_codec.h"

namespace griffin {

struct MetricNeeds {
  bool moments = false;    // sum, mean, stddev
  // stddev (Welford's running moments); an integer column's sum and mean
  // come from its exact integer sum alone, so they skip them.
  bool spread = false;
  bool extremes = false;   // min, max
  bool distinct = false;
  bool quantiles = false;
  bool any() const { return moments || extremes || distinct || quantiles; }
};

class ColumnMetrics {
 public:
  ColumnMetrics(ValueType type, MetricNeeds needs);

  // Feeds rows [0, column.num_rows) of one batch; `malformed` marks rows to skip.
  void AddBatch(const TypedColumn& column, const uint8_t* malformed);
  void ReserveDistinct(int64_t expected_values) {
    if (distinct_) distinct_->Reserve(expected_values);
  }

  int64_t count() const { return count_; }         // non-null values
  int64_t nulls() const { return nulls_; }         // null (or mistyped) in well-formed rows
  double sum() const;                               // NaN when no values? no: 0
  std::optional<double> mean() const;               // nullopt when empty
  std::optional<double> stddev() const;             // sample; nullopt when count < 2
  // min/max in the column's representation (double for float64, int64 else).
  std::optional<double> min_float() const { return count_ ? std::optional(min_f_) : std::nullopt; }
  std::optional<double> max_float() const { return count_ ? std::optional(max_f_) : std::nullopt; }
  std::optional<int64_t> min_int() const { return count_ ? std::optional(min_i_) : std::nullopt; }
  std::optional<int64_t> max_int() const { return count_ ? std::optional(max_i_) : std::nullopt; }
  int64_t distinct() const { return spilled_distinct_ >= 0 ? spilled_distinct_ : distinct_ ? distinct_->size() : 0; }
  bool has_exact_distinct() const { return distinct_ != nullptr; }

  // The distinct keys' bytes in memory (0 once spilled).
  int64_t distinct_memory_bytes() const { return distinct_ && !distinct_spill_ ? distinct_->memory_bytes() : 0; }
  // What the distinct keys' table reaches beyond that while `more_keys` new
  // keys go in (UniqueSet::growth_peak_bytes; 0 once spilled).
  int64_t distinct_growth_peak_bytes(int64_t more_keys) const {
    return distinct_ && !distinct_spill_ ? distinct_->growth_peak_bytes(more_keys) : 0;
  }
  // From now on the distinct keys go to `spill` (the run passed its memory
  // limit): the keys held so far are written there and their memory freed.
  // Not for a state that is serialized or merged (partial states).
  void SpillDistinct(std::unique_ptr<KeySpill> spill);
  // The spill, when SpillDistinct was called (its status, its bytes).
  const KeySpill* distinct_spill() const { return distinct_spill_.get(); }
  // Counts the spilled keys, one partition at a time (split past
  // `max_partition_bytes`, KeySpill::VisitBounded): distinct() is exact again.
  Status FinishDistinctSpill(int64_t max_partition_bytes = INT64_MAX);
  std::optional<double> quantile_float(double q) const;
  std::optional<int64_t> quantile_int(double q) const;
  ValueType type() const { return type_; }

  // Adds `other`'s values as if fed after this one's (a partial state's
  // merge, src/exec/partial_state.h): counts, extremes, distinct keys and
  // exact quantiles (up to QuantileSketch::kExactLimit values) come out as
  // one run's; sums and moments are combined (Neumaier sums added, Chan's
  // formula for M2), equal to one run's within rounding. Same type and needs.
  void Merge(const ColumnMetrics& other);
  void Serialize(ByteWriter* out) const;
  bool Deserialize(ByteReader* in);  // false (and `in` failed) when corrupt

 private:
  void AddValue(double x);
  ValueType type_;
  MetricNeeds needs_;
  int64_t count_ = 0, nulls_ = 0;
  double sum_ = 0, compensation_ = 0;    // Neumaier
  __int128 int_sum_ = 0;
  double mean_ = 0, m2_ = 0;             // Welford
  bool saw_nan_ = false;
  bool saw_nonfinite_ = false;
  double min_f_ = 0, max_f_ = 0;
  int64_t min_i_ = 0, max_i_ = 0;
  std::unique_ptr<UniqueSet> distinct_;
  std::unique_ptr<KeySpill> distinct_spill_;  // set once the distinct keys spilled
  int64_t spilled_distinct_ = -1;             // FinishDistinctSpill's count
  std::unique_ptr<QuantileSketch<double>> quantile_f_;
  std::unique_ptr<QuantileSketch<int64_t>> quantile_i_;
};

}  // namespace griffin
