// Loads Griffin's checks against history (docs/rules.md "Drift checks"):
// a column's `drift: {baseline: last_passed | run:ID | profile:FILE, max: X}`.
// Internal to rules/; column_rule_loader.cc calls it. Only the form is
// checked here: whether the run or the file exists is known when the check
// is evaluated (history/history_checks.h), and never stops a load.
#pragma once

#include "rules/rule_set.h"
#include "rules/yaml_helpers.h"
#include "util/status.h"

namespace griffin::rules_internal {

Result<DriftCheck> LoadDriftCheck(const YamlContext& ctx, const Field& field);

}  // namespace griffin::rules_internal
