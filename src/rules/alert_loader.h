// Loads an `alerts:` section (docs/alerts.md), in a rule file or in `griffin
// serve --config`: a list of webhooks
//
//   alerts:
//     - url_env: SLACK_WEBHOOK_URL     # or url: https://...
//       format: slack                  # slack | json (default)
//       on: [failure, score_drop, drift, anomaly]   # default: all four
//       min_score_drop: 0.05
//       timeout_s: 5
//       retries: 3
//       backoff_s: 1
//       deadline_s: 20
//       dedup_s: 3600
//
// Errors name the file, line and key; a URL is never quoted in one (it may
// hold a secret).
#pragma once

#include <vector>

#include "alerts/alert_target.h"
#include "rules/yaml_helpers.h"
#include "util/status.h"

namespace griffin {

// A loaded rule file's `alerts:` (none when it has no such section). The
// loader has checked it already (rule_loader.cc), so this fails only on a
// RuleSet not made by the loader. Alerts are not part of the compiled rules:
// only the front ends that send them (griffin validate, griffin serve) read them.
Result<std::vector<AlertTarget>> LoadRuleFileAlerts(const RuleSet& rules);

namespace rules_internal {

Result<std::vector<AlertTarget>> LoadAlertTargets(const YamlContext& ctx, const Field& field);

}  // namespace rules_internal
}  // namespace griffin
