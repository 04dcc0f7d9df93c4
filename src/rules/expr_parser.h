// Parses the row-expression language of rules-v1 into an ExprNode tree.
//
// Grammar (lowest precedence first):
//   or_expr   := and_expr ("or" and_expr)*
//   and_expr  := not_expr ("and" not_expr)*
//   not_expr  := "not" not_expr | predicate
//   predicate := sum (cmp sum | "is" ["not"] "null" | ["not"] "in" "(" literal-ish, ... ")")?
//   sum       := product (("+"|"-") product)*
//   product   := unary (("*"|"/") unary)*
//   unary     := "-" unary | primary
//   primary   := number | 'string' | true | false | null | identifier | "quoted name"
//              | func "(" args ")" | "(" or_expr ")"
// Keywords are case-insensitive; '' inside a string literal is a quote.
#pragma once

#include <memory>
#include <string>

#include "rules/expr_ast.h"
#include "util/status.h"

namespace griffin {

// Errors are RuleErrors: "at offset N: <what>" (the caller adds file and line).
Result<std::shared_ptr<const ExprNode>> ParseExpression(const std::string& text);

}  // namespace griffin
