// Load-time checks of a parsed row expression against the declared columns
// (docs/semantics.md, "Row expressions"):
//   - the pattern of matches(s, 'p') must compile with RE2;
//   - a string literal compared with (==, !=, <, <=, >, >=, in) a declared date
//     or timestamp column must parse as a date/timestamp.
// Internal to rules/.
#pragma once

#include <vector>

#include "rules/expr_ast.h"
#include "rules/rule_set.h"
#include "util/status.h"

namespace griffin::rules_internal {

// OK, or a RuleError "at offset N: <what>" like ParseExpression's.
Status CheckExpressionLiterals(const ExprNode& root, const std::vector<ColumnRule>& columns);

}  // namespace griffin::rules_internal
