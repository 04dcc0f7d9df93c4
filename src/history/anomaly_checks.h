// Judges a table `anomaly:` check (docs/rules.md "Anomaly checks"): this
// run's value of a metric against the metric's history in the run store,
// with a strategy of history/anomaly_strategies.h. Called by
// EvaluateHistoryChecks (history/history_checks.h).
//
// The current value comes from the report: rows, bad_rows, quality_score,
// or the run's column profile (Report::column_summaries, kept when the run
// has a store). The history is the metric's values in the dataset's earlier
// complete runs (RunStore::MetricHistory), newest first.
//
// Outcomes: no run store, too little history, or no current value (a column
// absent from the input, a mean of no values) pass with a `note`; a store
// that cannot be read fails the check with its error. The report gets the
// observed value, the range that passes (min/max), and under "anomaly" the
// strategy, what was expected, the history compared with, and the metric's
// series over the last kAnomalySeriesRuns earlier runs (for charts).
#pragma once

#include <optional>
#include <string>

#include "history/history_context.h"
#include "report/report.h"
#include "rules/rule_set.h"

namespace griffin {

// How many earlier runs of the metric the report's "series" holds (at least
// the store is asked for this many, whatever the strategy needs).
inline constexpr size_t kAnomalySeriesRuns = 30;

// The metric's value in `report`; nullopt when the run has none.
std::optional<double> CurrentMetricValue(const AnomalyCheck& check, const Report& report);

void JudgeAnomalyCheck(const AnomalyCheck& check, const std::string& dataset, const HistoryContext& context,
                       const Report& report, CheckReport* out);

}  // namespace griffin
