// What a column profile concludes from its state: the inferred type with its
// confidence, quantiles and histograms. Shared by the profile's JSON and
// text writers and by `griffin suggest`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "profile/column_state.h"
#include "util/value_type.h"

namespace griffin {

// The type share a column needs to be inferred as that type.
inline constexpr double kInferShare = 0.9;

struct InferredType {
  ValueType type = ValueType::kString;
  // The share of non-null values that read as `type`. For string: the share
  // that read as no other type (1 for plain text); 0 for an all-null column.
  double confidence = 0;
};

// The type most non-null values read as (ties: int64, bool, float64, date,
// timestamp, in that order) when at least kInferShare of them do; string
// otherwise.
InferredType InferType(const ColumnState& column);

inline constexpr double kQuantileLevels[] = {0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99};
// "p1", "p5", "p25", "p50", ...
std::string QuantileName(double level);

struct HistogramBin {
  double lo = 0, hi = 0;  // [lo, hi); the last bin includes hi
  int64_t count = 0;
};
inline constexpr int kHistogramBins = 20;

// Equal-width bins over [min, max] of the sketch's finite values (one bin
// when min == max; none when there are none). Counts are exact while the
// sketch is exact, weighted estimates past it.
std::vector<HistogramBin> NumberHistogram(const ColumnState& column);
std::vector<HistogramBin> TimeHistogram(const ColumnState& column);

// Sample standard deviation of the finite numbers; nullopt under 2 values.
std::optional<double> NumberStddev(const NumberStats& numbers);

// A time value (microseconds) as a date when the column is a date column,
// else as a timestamp.
std::string FormatTime(int64_t micros, ValueType column_type);

}  // namespace griffin
