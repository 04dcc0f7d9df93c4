// Loads and checks a rule file (rules-v1). Every problem is a RuleError of
// the form "<file>:<line>: <key path>: <what is wrong>", e.g.
//   rules.yaml:14: columns.amount.regex: a regex does not apply to float64 columns
// Unknown keys, checks that do not fit the column type, bad regexes (RE2),
// bad expressions and bad literals are all load-time errors.
#pragma once

#include <string>

#include "rules/rule_set.h"
#include "util/status.h"

namespace griffin {

Result<RuleSet> LoadRuleFile(const std::string& path);

// `display_name` stands for the file in messages.
Result<RuleSet> LoadRuleText(const std::string& yaml_text, const std::string& display_name);

}  // namespace griffin
