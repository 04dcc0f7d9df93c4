// Helpers for the rule loader tests: load text under the name "r.yaml" with
// the two required header lines (so the first line of `body` is line 3).
#pragma once

#include <string>

#include "rules/rule_loader.h"

namespace griffin::testing {

inline const char* kHeader = "griffin: 1\ndataset: d\n";

inline Result<RuleSet> LoadBody(const std::string& body) {
  return LoadRuleText(std::string(kHeader) + body, "r.yaml");
}

// The error message of loading `body` after the header, or "OK".
inline std::string BodyError(const std::string& body) {
  Result<RuleSet> rules = LoadBody(body);
  if (rules.ok()) return "OK";
  return rules.status().message();
}

}  // namespace griffin::testing
