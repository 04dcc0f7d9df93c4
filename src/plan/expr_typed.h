// The typed form of a row expression: the first compiler pass
// (TypecheckExpression) turns an ExprNode tree into this tree, where every
// node has a type, every literal is a typed constant, and every implicit
// conversion is an explicit kCast node. The second pass (EmitVectorOps in
// plan/expr_vector_ops.h) lowers it to a flat list of vector ops.
// Internal to plan/expr_program.cc.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "plan/expr_program.h"
#include "rules/expr_ast.h"
#include "util/status.h"

namespace re2 {
class RE2;
}

namespace griffin {

// kNull is the type of the bare literal `null` (and of arithmetic on it): it
// fits any operand position and always evaluates to null.
enum class ExprType { kNull, kBool, kInt, kFloat, kString, kDate, kTimestamp };

const char* ExprTypeName(ExprType type);
ExprType ExprTypeOf(ValueType type);

enum class CompareOp { kEq, kNe, kLt, kLe, kGt, kGe };
enum class ArithOp { kAdd, kSub, kMul, kDiv };

struct TypedExpr {
  enum class Kind {
    kColumn,     // column_slot
    kConstant,   // constant_null or int_value / float_value / string_value
    kCast,       // children[0] (of type cast_from) converted to `type`
    kNegate,     // -children[0]
    kAbs,        // abs(children[0])
    kArith,      // children[0] arith children[1]
    kCompare,    // children[0] compare children[1], both of one type
    kAnd,        // Kleene and
    kOr,         // Kleene or
    kNot,        // Kleene not
    kIsNull,     // negated: is not null
    kIn,         // children[0] in the set; negated: not in
    kLength,     // code points of a string
    kLower,      // ASCII lower case
    kUpper,      // ASCII upper case
    kMatches,    // RE2 partial match of children[0] against regex
  };

  Kind kind = Kind::kConstant;
  ExprType type = ExprType::kNull;
  int offset = 0;

  int column_slot = -1;
  ValueType column_type = ValueType::kString;
  std::optional<std::string> timestamp_format;  // kColumn: its `format:`

  bool constant_null = false;
  int64_t int_value = 0;  // also bool (0/1), date, timestamp
  double float_value = 0;
  std::string string_value;

  ExprType cast_from = ExprType::kNull;
  CompareOp compare = CompareOp::kEq;
  ArithOp arith = ArithOp::kAdd;
  bool negated = false;

  // kIn: the set in children[0]'s representation, sorted; in_has_null when a
  // `null` item makes a non-matching row null instead of false.
  std::vector<int64_t> in_ints;
  std::vector<double> in_floats;
  std::vector<std::string> in_strings;
  bool in_has_null = false;

  std::shared_ptr<const re2::RE2> regex;

  std::vector<std::unique_ptr<TypedExpr>> children;
};

// Types `root` against the resolver. The result type of the root is kBool
// (or kNull for an expression that is always null). Errors are RuleErrors
// "at offset N: <what>". `column_slots` receives the slots read, sorted and
// without repeats.
Result<std::unique_ptr<TypedExpr>> TypecheckExpression(const ExprNode& root,
                                                       const ExprColumnResolver& resolver,
                                                       std::vector<int>* column_slots);

// --- helpers shared by the typecheck files (plan/expr_typecheck*.cc) ---

Status ExprTypeError(int offset, const std::string& what);
std::unique_ptr<TypedExpr> MakeNullConstant(ExprType type, int offset);
bool IsNumeric(ExprType type);
bool IsTemporal(ExprType type);
bool IsConstant(const TypedExpr& expr);

// A kLiteral node as a typed constant (kNull, kBool, kInt, kFloat, kString).
Result<std::unique_ptr<TypedExpr>> TypeLiteral(const ExprNode& literal);

// Wraps `expr` in a conversion to `target` (folded when `expr` is constant).
// Supported: int->float, string->float, date->timestamp; anything -> same type.
std::unique_ptr<TypedExpr> CastTo(std::unique_ptr<TypedExpr> expr, ExprType target);

// Brings both operands of a comparison to one type, or fails with an error
// naming both types. A string constant compared with a number is parsed at
// compile time; compared with a date/timestamp it is parsed as one.
Status UnifyForComparison(int offset, std::unique_ptr<TypedExpr>* left,
                          std::unique_ptr<TypedExpr>* right);

// Builds the set of an `in` node from literal items, casting the left side
// when the items need it (string left with numeric items -> float; date left
// with a timestamp item -> timestamp).
Status BuildInSet(const ExprNode& in_node, TypedExpr* in_expr);

}  // namespace griffin
