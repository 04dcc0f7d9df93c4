// Drift between two profiles (a baseline and the current data): one distance
// per column, with TFDV's definitions (docs/semantics.md "Drift"):
//   categorical (string, bool columns): the L-infinity distance between the
//     two distributions of values, max over values v of |P(v) - Q(v)|;
//   numeric (int64, float64, date, timestamp): the Jensen-Shannon divergence
//     in log base 2 (0 to 1) between the two histograms over the same
//     kDriftBins equal-width bins spanning both columns' finite ranges.
// Shares are over each side's non-null values. Categorical shares come from
// the top-value summaries (exact up to 256 distinct values; past that the
// values not listed count as one "(other)" value).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "profile/table_profile.h"

namespace griffin {

inline constexpr int kDriftBins = 20;

struct DriftMove {
  std::string label;           // a value, or a bin "[lo, hi)"
  double baseline_share = 0, current_share = 0;
};

struct ColumnDrift {
  std::string column;
  std::string measure;         // "linf", "js", or "" when not comparable
  std::optional<double> value; // nullopt when not comparable (see note)
  std::vector<DriftMove> moved;  // the values or bins that moved most, largest first
  // Both distributions side by side: every bin in order (numeric), or the
  // kDriftDistributionListed most common values (by the larger share) and
  // "(rest)" (categorical). For charts.
  std::vector<DriftMove> distribution;
  std::string note;            // why not comparable ("no values in the baseline", ...)
};

inline constexpr size_t kDriftMovesListed = 5;
inline constexpr size_t kDriftDistributionListed = 20;

// One entry per column of `current`, in its order, then the baseline's
// columns that `current` lacks (note "not in the current data").
std::vector<ColumnDrift> CompareProfiles(const TableProfile& baseline, const TableProfile& current);
ColumnDrift ColumnDriftOf(const std::string& column, const ColumnState& baseline, const ColumnState& current);

// The Jensen-Shannon divergence (log base 2) of two count vectors of equal
// length, each normalised to shares; 0 when both are empty.
double JensenShannon(const std::vector<double>& p, const std::vector<double>& q);

}  // namespace griffin
