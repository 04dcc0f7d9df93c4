// `source.where:` and `--where`: a row filter for database sources, in a small
// predicate language that Griffin parses itself, so that it reaches the
// database as SQL Griffin writes: identifiers quoted per dialect and every
// value a bound parameter (connectors/sql/where_sql.h). It is not SQL the
// user wrote: no function, subquery, cast, comment or second statement can
// get through.
//
//   predicate  := or
//   or         := and (OR and)*
//   and        := not (AND not)*
//   not        := NOT not | '(' or ')' | test
//   test       := operand (= | == | != | <> | < | <= | > | >=) operand
//               | operand IS [NOT] NULL
//               | operand [NOT] IN '(' literal (',' literal)* ')'
//               | operand [NOT] BETWEEN operand AND operand
//               | operand [NOT] LIKE 'pattern'
//   operand    := column | literal
//   column     := name | "quoted name"  (names: [A-Za-z_][A-Za-z0-9_]*)
//   literal    := 'text' ('' for ') | [-]number | TRUE | FALSE | DATE 'YYYY-MM-DD'
//
// Keywords are case-insensitive. A column named like a keyword (and, or, not,
// is, null, in, true, false, between, like, date) is written "quoted".
//
//   ASSIGN_OR_RETURN(std::unique_ptr<WherePredicate> where, ParseWhere("region = 'eu' AND amount > 10"));
//
// Errors: RuleError "at offset N: <what>" (N counts characters).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rules/rule_set.h"
#include "util/status.h"

namespace griffin {

struct WherePredicate {
  enum class Kind { kAnd, kOr, kNot, kCompare, kIsNull, kIn, kBetween, kLike, kColumn, kLiteral };
  Kind kind = Kind::kLiteral;
  std::string op;         // kCompare: = <> < <= > >=
  bool negated = false;   // IS NOT NULL, NOT IN, NOT BETWEEN, NOT LIKE
  std::string column;     // kColumn: the name
  Literal literal;        // kLiteral: kString, kInt, kFloat, kBool or kDate
  // kAnd, kOr: two; kNot: one; kCompare: two operands; kIsNull: one; kIn: the
  // operand then the values; kBetween: three; kLike: the operand and the pattern.
  std::vector<std::unique_ptr<WherePredicate>> children;
};

Result<std::unique_ptr<WherePredicate>> ParseWhere(std::string_view text);

// The column names a predicate reads, each once, in order of appearance.
std::vector<std::string> WhereColumns(const WherePredicate& predicate);

// What a refused predicate's message ends with: where SQL of one's own goes.
inline constexpr const char* kWhereHint = " (a predicate in Griffin's language, docs/sql.md#where; SQL of your own "
                                          "goes in --query)";

// --where's text checked: UsageError "--where: at offset N: ...<hint>" (exit 2).
Status CheckWhereOption(std::string_view text);

}  // namespace griffin
