// The syntax tree of a row expression (rules-v1 "Row checks"). Produced by
// ParseExpression (rules/expr_parser.h); compiled into a vector program by
// plan/expr_program.h. Immutable once built; safe to share across threads.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace griffin {

struct ExprNode {
  enum class Kind {
    kColumn,      // name
    kLiteral,     // literal_kind + text
    kUnary,       // op: "not", "-" ; children[0]
    kBinary,      // op: "and" "or" "==" "!=" "<" "<=" ">" ">=" "+" "-" "*" "/"; children[0..1]
    kIsNull,      // children[0]; negated = true for "is not null"
    kIn,          // children[0] in (children[1..]); negated for "not in"
    kCall,        // name: abs length lower upper matches; children = args
  };
  enum class LiteralKind { kNull, kBool, kInt, kFloat, kString };

  Kind kind;
  std::string name;       // kColumn: column name; kCall: function name
  std::string op;         // kUnary / kBinary operator
  LiteralKind literal_kind = LiteralKind::kNull;
  std::string text;       // kLiteral: the literal (unquoted string, or number spelling, "true")
  bool negated = false;   // kIsNull / kIn
  int offset = 0;         // 0-based character offset in the expression text
  std::vector<std::shared_ptr<const ExprNode>> children;
};

}  // namespace griffin
