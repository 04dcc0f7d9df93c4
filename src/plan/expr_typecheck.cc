// First compiler pass: ExprNode -> TypedExpr (see plan/expr_typed.h).
// Operator typing lives here; literal coercions in expr_coerce.cc.
#include <re2/re2.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>

#include "plan/expr_typed.h"

namespace griffin {
namespace {

// The parser bounds the tree height at 1000; this guards hand-built trees.
constexpr int kMaxDepth = 2000;

using TypedPtr = std::unique_ptr<TypedExpr>;

TypedPtr NewTyped(TypedExpr::Kind kind, ExprType type, int offset) {
  auto expr = std::make_unique<TypedExpr>();
  expr->kind = kind;
  expr->type = type;
  expr->offset = offset;
  return expr;
}

TypedPtr Unary(TypedExpr::Kind kind, ExprType type, int offset, TypedPtr child) {
  TypedPtr expr = NewTyped(kind, type, offset);
  expr->children.push_back(std::move(child));
  return expr;
}

TypedPtr BinaryOf(TypedExpr::Kind kind, ExprType type, int offset, TypedPtr left, TypedPtr right) {
  TypedPtr expr = NewTyped(kind, type, offset);
  expr->children.push_back(std::move(left));
  expr->children.push_back(std::move(right));
  return expr;
}

class Typechecker {
 public:
  Typechecker(const ExprColumnResolver& resolver, std::vector<int>* slots)
      : resolver_(resolver), slots_(slots) {}

  Result<TypedPtr> Check(const ExprNode& node, int depth) {
    if (depth > kMaxDepth) return ExprTypeError(node.offset, "expression too deep");
    switch (node.kind) {
      case ExprNode::Kind::kColumn: return Column(node);
      case ExprNode::Kind::kLiteral: return TypeLiteral(node);
      case ExprNode::Kind::kUnary: return UnaryOp(node, depth);
      case ExprNode::Kind::kBinary: return BinaryOp(node, depth);
      case ExprNode::Kind::kIsNull: return IsNull(node, depth);
      case ExprNode::Kind::kIn: return In(node, depth);
      case ExprNode::Kind::kCall: return Call(node, depth);
    }
    return ExprTypeError(node.offset, "unknown expression node");
  }

 private:
  Status NeedChildren(const ExprNode& node, size_t count, const std::string& what) {
    if (node.children.size() != count || std::any_of(node.children.begin(), node.children.end(),
                                                     [](const auto& c) { return c == nullptr; })) {
      return ExprTypeError(node.offset, what + " takes " + std::to_string(count) +
                                            (count == 1 ? " operand" : " operands"));
    }
    return Status::OK();
  }

  Result<TypedPtr> Column(const ExprNode& node) {
    std::optional<ExprColumnInfo> info = resolver_(node.name);
    if (!info) return ExprTypeError(node.offset, "unknown column '" + node.name + "'");
    TypedPtr expr = NewTyped(TypedExpr::Kind::kColumn, ExprTypeOf(info->type), node.offset);
    expr->column_slot = info->column_slot;
    expr->column_type = info->type;
    expr->timestamp_format = info->timestamp_format;
    slots_->push_back(info->column_slot);
    return expr;
  }

  // Operands of and / or / not: bool, or the null literal (a bool null).
  Result<TypedPtr> BoolOperand(const ExprNode& child, const std::string& op, int depth) {
    ASSIGN_OR_RETURN(TypedPtr operand, Check(child, depth + 1));
    if (operand->type == ExprType::kNull) return MakeNullConstant(ExprType::kBool, operand->offset);
    if (operand->type != ExprType::kBool) {
      return ExprTypeError(child.offset, "'" + op + "' needs bool operands, got " +
                                             ExprTypeName(operand->type));
    }
    return operand;
  }

  Result<TypedPtr> UnaryOp(const ExprNode& node, int depth) {
    RETURN_IF_ERROR(NeedChildren(node, 1, "'" + node.op + "'"));
    if (node.op == "not") {
      ASSIGN_OR_RETURN(TypedPtr operand, BoolOperand(*node.children[0], "not", depth));
      return Unary(TypedExpr::Kind::kNot, ExprType::kBool, node.offset, std::move(operand));
    }
    if (node.op == "-") {
      ASSIGN_OR_RETURN(TypedPtr operand, Check(*node.children[0], depth + 1));
      if (operand->type == ExprType::kNull) return MakeNullConstant(ExprType::kNull, node.offset);
      if (!IsNumeric(operand->type)) {
        return ExprTypeError(node.offset, std::string("unary '-' needs a number, got ") +
                                              ExprTypeName(operand->type));
      }
      ExprType type = operand->type;
      return Unary(TypedExpr::Kind::kNegate, type, node.offset, std::move(operand));
    }
    return ExprTypeError(node.offset, "unknown operator '" + node.op + "'");
  }

  Result<TypedPtr> BinaryOp(const ExprNode& node, int depth) {
    RETURN_IF_ERROR(NeedChildren(node, 2, "'" + node.op + "'"));
    const std::string& op = node.op;
    if (op == "and" || op == "or") {
      ASSIGN_OR_RETURN(TypedPtr left, BoolOperand(*node.children[0], op, depth));
      ASSIGN_OR_RETURN(TypedPtr right, BoolOperand(*node.children[1], op, depth));
      return BinaryOf(op == "and" ? TypedExpr::Kind::kAnd : TypedExpr::Kind::kOr, ExprType::kBool,
                      node.offset, std::move(left), std::move(right));
    }
    ASSIGN_OR_RETURN(TypedPtr left, Check(*node.children[0], depth + 1));
    ASSIGN_OR_RETURN(TypedPtr right, Check(*node.children[1], depth + 1));
    static const std::pair<const char*, CompareOp> kCompares[] = {
        {"==", CompareOp::kEq}, {"!=", CompareOp::kNe}, {"<", CompareOp::kLt},
        {"<=", CompareOp::kLe}, {">", CompareOp::kGt},  {">=", CompareOp::kGe}};
    for (const auto& [spelling, compare] : kCompares) {
      if (op != spelling) continue;
      if (left->type == ExprType::kNull || right->type == ExprType::kNull) {
        return MakeNullConstant(ExprType::kBool, node.offset);  // SQL: x == null is null
      }
      RETURN_IF_ERROR(UnifyForComparison(node.offset, &left, &right));
      TypedPtr expr = BinaryOf(TypedExpr::Kind::kCompare, ExprType::kBool, node.offset,
                               std::move(left), std::move(right));
      expr->compare = compare;
      return expr;
    }
    static const std::pair<const char*, ArithOp> kAriths[] = {
        {"+", ArithOp::kAdd}, {"-", ArithOp::kSub}, {"*", ArithOp::kMul}, {"/", ArithOp::kDiv}};
    for (const auto& [spelling, arith] : kAriths) {
      if (op != spelling) continue;
      return Arithmetic(node, arith, std::move(left), std::move(right));
    }
    return ExprTypeError(node.offset, "unknown operator '" + op + "'");
  }

  static Result<TypedPtr> Arithmetic(const ExprNode& node, ArithOp arith, TypedPtr left,
                                     TypedPtr right) {
    auto fits = [](ExprType t) { return t == ExprType::kNull || IsNumeric(t); };
    if (!fits(left->type) || !fits(right->type)) {
      return ExprTypeError(node.offset, "'" + node.op + "' needs numbers, got " +
                                            ExprTypeName(left->type) + " and " +
                                            ExprTypeName(right->type));
    }
    const bool any_float = left->type == ExprType::kFloat || right->type == ExprType::kFloat;
    const bool both_null = left->type == ExprType::kNull && right->type == ExprType::kNull;
    ExprType type = (arith == ArithOp::kDiv || any_float) ? ExprType::kFloat : ExprType::kInt;
    if (left->type == ExprType::kNull || right->type == ExprType::kNull) {
      return MakeNullConstant(both_null ? ExprType::kNull : type, node.offset);
    }
    TypedPtr expr = BinaryOf(TypedExpr::Kind::kArith, type, node.offset, CastTo(std::move(left), type),
                             CastTo(std::move(right), type));
    expr->arith = arith;
    return expr;
  }

  Result<TypedPtr> IsNull(const ExprNode& node, int depth) {
    RETURN_IF_ERROR(NeedChildren(node, 1, "'is null'"));
    ASSIGN_OR_RETURN(TypedPtr operand, Check(*node.children[0], depth + 1));
    if (IsConstant(*operand)) {
      TypedPtr folded = NewTyped(TypedExpr::Kind::kConstant, ExprType::kBool, node.offset);
      folded->int_value = operand->constant_null != node.negated ? 1 : 0;
      return folded;
    }
    TypedPtr expr = Unary(TypedExpr::Kind::kIsNull, ExprType::kBool, node.offset, std::move(operand));
    expr->negated = node.negated;
    return expr;
  }

  Result<TypedPtr> In(const ExprNode& node, int depth) {
    if (node.children.size() < 2 || node.children[0] == nullptr) {
      return ExprTypeError(node.offset, "'in' needs a value and a list");
    }
    ASSIGN_OR_RETURN(TypedPtr left, Check(*node.children[0], depth + 1));
    TypedPtr expr = Unary(TypedExpr::Kind::kIn, ExprType::kBool, node.offset, std::move(left));
    expr->negated = node.negated;
    RETURN_IF_ERROR(BuildInSet(node, expr.get()));
    if (expr->children[0]->type == ExprType::kNull) {
      return MakeNullConstant(ExprType::kBool, node.offset);
    }
    return expr;
  }

  Result<TypedPtr> Call(const ExprNode& node, int depth) {
    const std::string& name = node.name;
    const bool is_matches = name == "matches";
    if (name != "abs" && name != "length" && name != "lower" && name != "upper" && !is_matches) {
      return ExprTypeError(node.offset, "unknown function '" + name + "'");
    }
    RETURN_IF_ERROR(NeedChildren(node, is_matches ? 2 : 1, name + "()"));
    ASSIGN_OR_RETURN(TypedPtr arg, Check(*node.children[0], depth + 1));
    const ExprType type = arg->type;
    auto wrong_type = [&](const char* needs) {
      return ExprTypeError(node.children[0]->offset, name + "() needs " + needs + ", got " +
                                                         ExprTypeName(type));
    };
    if (name == "abs") {
      if (type == ExprType::kNull) return MakeNullConstant(ExprType::kNull, node.offset);
      if (!IsNumeric(type)) return wrong_type("a number");
      return Unary(TypedExpr::Kind::kAbs, type, node.offset, std::move(arg));
    }
    if (type != ExprType::kString && type != ExprType::kNull) return wrong_type("a string");
    if (name == "length" || name == "lower" || name == "upper") {
      const ExprType result = name == "length" ? ExprType::kInt : ExprType::kString;
      if (type == ExprType::kNull) return MakeNullConstant(result, node.offset);
      const TypedExpr::Kind kind = name == "length"  ? TypedExpr::Kind::kLength
                                   : name == "lower" ? TypedExpr::Kind::kLower
                                                     : TypedExpr::Kind::kUpper;
      return Unary(kind, result, node.offset, std::move(arg));
    }
    // matches(s, 'pattern'): the pattern is compiled now, so a bad one fails the load.
    const ExprNode& pattern = *node.children[1];
    if (pattern.kind != ExprNode::Kind::kLiteral ||
        pattern.literal_kind != ExprNode::LiteralKind::kString) {
      return ExprTypeError(pattern.offset, "matches() needs a string literal as its pattern");
    }
    RE2::Options options;
    options.set_log_errors(false);
    auto regex = std::make_shared<const RE2>(pattern.text, options);
    if (!regex->ok()) {
      return ExprTypeError(pattern.offset, "bad pattern in matches(): " + regex->error());
    }
    if (type == ExprType::kNull) return MakeNullConstant(ExprType::kBool, node.offset);
    TypedPtr expr = Unary(TypedExpr::Kind::kMatches, ExprType::kBool, node.offset, std::move(arg));
    expr->regex = std::move(regex);
    return expr;
  }

  const ExprColumnResolver& resolver_;
  std::vector<int>* slots_;
};

}  // namespace

Result<std::unique_ptr<TypedExpr>> TypeLiteral(const ExprNode& literal) {
  TypedPtr expr = NewTyped(TypedExpr::Kind::kConstant, ExprType::kNull, literal.offset);
  const std::string& text = literal.text;
  switch (literal.literal_kind) {
    case ExprNode::LiteralKind::kNull:
      expr->constant_null = true;
      return expr;
    case ExprNode::LiteralKind::kBool: {
      std::string lower = text;
      for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
      if (lower != "true" && lower != "false") {
        return ExprTypeError(literal.offset, "bad bool literal '" + text + "'");
      }
      expr->type = ExprType::kBool;
      expr->int_value = lower == "true" ? 1 : 0;
      return expr;
    }
    case ExprNode::LiteralKind::kInt: {
      auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), expr->int_value);
      if (error != std::errc() || end != text.data() + text.size()) {
        return ExprTypeError(literal.offset, "integer " + text + " is out of the int64 range");
      }
      expr->type = ExprType::kInt;
      return expr;
    }
    case ExprNode::LiteralKind::kFloat: {
      char* end = nullptr;
      expr->float_value = std::strtod(text.c_str(), &end);
      if (text.empty() || end != text.c_str() + text.size()) {
        return ExprTypeError(literal.offset, "bad number '" + text + "'");
      }
      expr->type = ExprType::kFloat;
      return expr;
    }
    case ExprNode::LiteralKind::kString:
      expr->type = ExprType::kString;
      expr->string_value = text;
      return expr;
  }
  return ExprTypeError(literal.offset, "unknown literal");
}

Result<std::unique_ptr<TypedExpr>> TypecheckExpression(const ExprNode& root,
                                                       const ExprColumnResolver& resolver,
                                                       std::vector<int>* column_slots) {
  column_slots->clear();
  Typechecker checker(resolver, column_slots);
  ASSIGN_OR_RETURN(TypedPtr typed, checker.Check(root, 0));
  std::sort(column_slots->begin(), column_slots->end());
  column_slots->erase(std::unique(column_slots->begin(), column_slots->end()), column_slots->end());
  if (typed->type == ExprType::kNull) return MakeNullConstant(ExprType::kBool, root.offset);
  if (typed->type != ExprType::kBool) {
    return ExprTypeError(root.offset, std::string("a row expression must be true or false, got ") +
                                          ExprTypeName(typed->type));
  }
  return typed;
}

}  // namespace griffin
