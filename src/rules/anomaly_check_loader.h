// Loads Griffin's anomaly checks (docs/rules.md "Anomaly checks"): an item of
// `table:` like
//
//   - anomaly: {metric: row_count, relative_change: {max_increase: 0.5, max_decrease: 0.3}}
//   - anomaly: {metric: amount.mean, z_score: {max: 3, window: 30}, season: 7}
//
// Internal to rules/; table_rule_loader.cc calls it. The metric must name a
// run metric or a declared column's metric that fits its type; whether the
// store has a history is known only when the check is evaluated
// (history/anomaly_checks.h).
#pragma once

#include <vector>

#include "rules/rule_set.h"
#include "rules/yaml_helpers.h"
#include "util/status.h"

namespace griffin::rules_internal {

// `field` is the `anomaly` key's field (its value is the check's map).
Result<AnomalyCheck> LoadAnomalyCheck(const YamlContext& ctx, const Field& field,
                                      const std::vector<ColumnRule>& columns);

}  // namespace griffin::rules_internal
