// Loads the `table:` section of a rule file (rules-v1 "Table checks"): a list
// of one-key maps `- <metric>: {column, min, max, q, severity, message}`.
// A metric's column must be declared in `columns:` and fit the metric (mean,
// stddev, sum: int64/float64; min, max, quantile: int64/float64/date/timestamp;
// null_fraction, distinct_count: any). Bounds are numbers, except min, max and
// quantile on date/timestamp columns, which take date/timestamp text or `now`.
// Internal to rules/.
#pragma once

#include <vector>

#include "rules/rule_set.h"
#include "rules/yaml_helpers.h"
#include "util/status.h"

namespace griffin::rules_internal {

// `anomaly:` items (rules/anomaly_check_loader.h) go to `anomalies`.
Result<std::vector<TableCheck>> LoadTableChecks(const YamlContext& ctx, const Field& table,
                                                const std::vector<ColumnRule>& columns,
                                                std::vector<AnomalyCheck>* anomalies);

}  // namespace griffin::rules_internal
