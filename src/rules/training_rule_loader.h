// Loads the `training:` section of a rule file, Griffin's extension of
// rules-v1 for `griffin serve`'s POST /metrics (docs/rules.md, "Training
// telemetry"):
//
//   training:
//     loss:                        # the request's "loss"
//       required: true             # a missing or null loss violates loss.required
//       finite: true
//       min: 0
//       max: {value: 100, severity: warn}
//       spike: {sigma: 6, window: 100, min_history: 10, direction: up}
//     metrics:                     # entries of the request's "metrics"
//       grad_norm: {finite: true, max: 1000}
//     unknown_batch: fail          # fail | neutral
//     min_score: 0.9
//
// Errors are RuleErrors naming the line and key path, as for the other sections.
// Internal to rules/.
#pragma once

#include "rules/rule_set.h"
#include "rules/yaml_helpers.h"
#include "util/status.h"

namespace griffin::rules_internal {

Result<TrainingRules> LoadTrainingRules(const YamlContext& ctx, const Field& training);

}  // namespace griffin::rules_internal
