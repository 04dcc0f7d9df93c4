// Deequ's anomaly detection strategies over one metric's history
// (docs/rules.md "Anomaly checks"), as pure functions of the values:
//
//   relative_change  RelativeRateOfChangeStrategy: (value - previous) / |previous|
//                    within [-max_decrease, max_increase]
//   absolute_change  AbsoluteChangeStrategy: value - previous within
//                    [-max_decrease, max_increase]
//   z_score          OnlineNormalStrategy over a window: value within
//                    mean ± max * stddev (sample, n - 1) of the last `window`
//                    values; a history with no spread allows only its mean
//
// `season` picks the history: the values season, 2*season, ... runs back
// (season 1: every run). Too little history is not a failure: the verdict
// is not judged, with a note.
//
//   AnomalyVerdict verdict = JudgeAnomaly(check, 1500, {800, 790, 805});
//   if (verdict.judged && !verdict.passed) ... verdict.lower, verdict.upper
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rules/rule_set.h"

namespace griffin {

struct AnomalyVerdict {
  bool judged = false;               // false: too little history (`note` says why)
  bool passed = true;
  std::string note;
  std::vector<size_t> used;          // the history values compared with: indices, newest first
  std::optional<double> expected;    // the previous value, or the window's mean
  std::optional<double> stddev;      // z_score: the window's sample standard deviation
  std::optional<double> lower, upper;  // the range of values that pass (a side may be open)
  std::optional<double> change;      // relative or absolute change from `expected`
  std::optional<double> z;           // z_score: (value - mean) / stddev (±inf for no spread)
};

// `history`: the metric's earlier values, newest first (finite values only).
AnomalyVerdict JudgeAnomaly(const AnomalyCheck& check, double value, const std::vector<double>& history);

// How many earlier values JudgeAnomaly may look at: ask the store for this many.
int HistoryNeeded(const AnomalyCheck& check);

const char* AnomalyStrategyName(AnomalyCheck::Strategy strategy);  // "relative_change", ...

}  // namespace griffin
