// Loads the `stream:` section of a rule file, Griffin's extension of rules-v1
// for `griffin stream` (docs/semantics.md, "Table checks over a window"):
//
//   stream:
//     window: 10m        # a duration: a whole number and ms, s, m or h (at most 24h)
//     window: 5000       # or a whole number of records (at most 1,000,000,000)
//
// Other front ends read and ignore it. Errors are RuleErrors naming the line
// and key path, as for the other sections. Internal to rules/.
#pragma once

#include "rules/rule_set.h"
#include "rules/yaml_helpers.h"
#include "util/status.h"

namespace griffin::rules_internal {

Result<StreamRules> LoadStreamRules(const YamlContext& ctx, const Field& stream);

}  // namespace griffin::rules_internal
