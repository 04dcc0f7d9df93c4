// Loads the `rows:` section of a rule file (rules-v1 "Row checks"): a list of
// {name, expr | unique, severity, mostly, message}. Expressions are parsed with
// ParseExpression (rules/expr_parser.h) and their literals checked against the
// declared columns (rules/expr_checks.h). Internal to rules/.
#pragma once

#include <vector>

#include "rules/rule_set.h"
#include "rules/yaml_helpers.h"
#include "util/status.h"

namespace griffin::rules_internal {

Result<std::vector<RowCheck>> LoadRowChecks(const YamlContext& ctx, const Field& rows,
                                            const std::vector<ColumnRule>& columns);

}  // namespace griffin::rules_internal
