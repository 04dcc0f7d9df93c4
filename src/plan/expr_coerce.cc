// Type names, constants, casts and the coercions of comparisons and `in`
// lists (docs/semantics.md "Row expressions").
#include <algorithm>
#include <cmath>

#include "plan/expr_typed.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

constexpr int64_t kMicrosPerDay = 86400LL * 1000 * 1000;

using TypedPtr = std::unique_ptr<TypedExpr>;

// "'text'" for strings, the number or bool for the rest; for error messages.
std::string DescribeConstant(const TypedExpr& constant) {
  if (constant.constant_null) return "null";
  switch (constant.type) {
    case ExprType::kString: return "'" + constant.string_value + "'";
    case ExprType::kBool: return constant.int_value ? "true" : "false";
    case ExprType::kInt: return std::to_string(constant.int_value);
    case ExprType::kFloat: return FormatDouble(constant.float_value);
    default: return ExprTypeName(constant.type);
  }
}

// A date or timestamp from a string constant; date first, so '2024-01-02'
// stays a date and compares with a date column without widening. Then the
// other side's column `format:`, when it has one (always a timestamp).
Status ParseTemporalConstant(TypedExpr* constant, const char* wanted,
                             const std::optional<std::string>& format) {
  std::optional<int64_t> micros;
  if (std::optional<int64_t> days = ParseDate(constant->string_value)) {
    constant->type = ExprType::kDate;
    constant->int_value = *days;
  } else if ((micros = ParseTimestamp(constant->string_value)) ||
             (format && (micros = ParseTimestampWithFormat(constant->string_value, *format)))) {
    constant->type = ExprType::kTimestamp;
    constant->int_value = *micros;
  } else {
    return ExprTypeError(constant->offset, "'" + constant->string_value + "' is not " + wanted);
  }
  constant->string_value.clear();
  return Status::OK();
}

}  // namespace

const char* ExprTypeName(ExprType type) {
  switch (type) {
    case ExprType::kNull: return "null";
    case ExprType::kBool: return "bool";
    case ExprType::kInt: return "int64";
    case ExprType::kFloat: return "float64";
    case ExprType::kString: return "string";
    case ExprType::kDate: return "date";
    case ExprType::kTimestamp: return "timestamp";
  }
  return "?";
}

ExprType ExprTypeOf(ValueType type) {
  switch (type) {
    case ValueType::kString: return ExprType::kString;
    case ValueType::kInt64: return ExprType::kInt;
    case ValueType::kFloat64: return ExprType::kFloat;
    case ValueType::kBool: return ExprType::kBool;
    case ValueType::kDate: return ExprType::kDate;
    case ValueType::kTimestamp: return ExprType::kTimestamp;
  }
  return ExprType::kString;
}

Status ExprTypeError(int offset, const std::string& what) {
  return Status::RuleError("at offset " + std::to_string(offset) + ": " + what);
}

std::unique_ptr<TypedExpr> MakeNullConstant(ExprType type, int offset) {
  auto expr = std::make_unique<TypedExpr>();
  expr->kind = TypedExpr::Kind::kConstant;
  expr->type = type;
  expr->offset = offset;
  expr->constant_null = true;
  return expr;
}

bool IsNumeric(ExprType type) { return type == ExprType::kInt || type == ExprType::kFloat; }
bool IsTemporal(ExprType type) { return type == ExprType::kDate || type == ExprType::kTimestamp; }
bool IsConstant(const TypedExpr& expr) { return expr.kind == TypedExpr::Kind::kConstant; }

std::unique_ptr<TypedExpr> CastTo(std::unique_ptr<TypedExpr> expr, ExprType target) {
  if (expr->type == target) return expr;
  if (IsConstant(*expr)) {
    const ExprType from = expr->type;
    expr->type = target;
    if (expr->constant_null) return expr;
    if (from == ExprType::kInt && target == ExprType::kFloat) {
      expr->float_value = static_cast<double>(expr->int_value);
    } else if (from == ExprType::kString && target == ExprType::kFloat) {
      std::optional<double> value = ParseFloat64(expr->string_value);
      expr->constant_null = !value.has_value();
      expr->float_value = value.value_or(0);
      expr->string_value.clear();
    } else if (from == ExprType::kDate && target == ExprType::kTimestamp) {
      expr->constant_null = __builtin_mul_overflow(expr->int_value, kMicrosPerDay, &expr->int_value);
    }
    return expr;
  }
  auto cast = std::make_unique<TypedExpr>();
  cast->kind = TypedExpr::Kind::kCast;
  cast->type = target;
  cast->cast_from = expr->type;
  cast->offset = expr->offset;
  cast->children.push_back(std::move(expr));
  return cast;
}

Status UnifyForComparison(int offset, std::unique_ptr<TypedExpr>* left,
                          std::unique_ptr<TypedExpr>* right) {
  const ExprType lt = (*left)->type;
  const ExprType rt = (*right)->type;
  if (lt == rt) return Status::OK();
  if (IsNumeric(lt) && IsNumeric(rt)) {
    *left = CastTo(std::move(*left), ExprType::kFloat);
    *right = CastTo(std::move(*right), ExprType::kFloat);
    return Status::OK();
  }
  if (IsTemporal(lt) && IsTemporal(rt)) {  // a date is midnight UTC
    *left = CastTo(std::move(*left), ExprType::kTimestamp);
    *right = CastTo(std::move(*right), ExprType::kTimestamp);
    return Status::OK();
  }
  const bool left_is_string = lt == ExprType::kString;
  TypedPtr& string_side = left_is_string ? *left : *right;
  const ExprType other = left_is_string ? rt : lt;
  if (lt == ExprType::kString || rt == ExprType::kString) {
    if (IsNumeric(other)) {
      if (IsConstant(*string_side) && !ParseFloat64(string_side->string_value)) {
        return ExprTypeError(string_side->offset, "cannot compare " + std::string(ExprTypeName(other)) +
                                                      " with '" + string_side->string_value +
                                                      "': it is not a number");
      }
      *left = CastTo(std::move(*left), ExprType::kFloat);
      *right = CastTo(std::move(*right), ExprType::kFloat);
      return Status::OK();
    }
    if (IsTemporal(other)) {
      if (!IsConstant(*string_side)) {
        return ExprTypeError(offset, std::string("cannot compare ") + ExprTypeName(other) +
                                         " with a string column (declare the column's type, "
                                         "or compare with a literal)");
      }
      const TypedExpr& temporal_side = left_is_string ? **right : **left;
      RETURN_IF_ERROR(ParseTemporalConstant(string_side.get(),
                                            other == ExprType::kDate ? "a date" : "a timestamp",
                                            temporal_side.timestamp_format));
      return UnifyForComparison(offset, left, right);
    }
  }
  return ExprTypeError(offset, std::string("cannot compare ") + ExprTypeName(lt) + " with " +
                                   ExprTypeName(rt));
}

Status BuildInSet(const ExprNode& in_node, TypedExpr* in_expr) {
  std::vector<TypedPtr> items;
  for (size_t i = 1; i < in_node.children.size(); ++i) {
    const ExprNode* item = in_node.children[i].get();
    if (item == nullptr || item->kind != ExprNode::Kind::kLiteral) {
      return ExprTypeError(item == nullptr ? in_node.offset : item->offset,
                           "items of an 'in' list must be literals");
    }
    ASSIGN_OR_RETURN(TypedPtr typed, TypeLiteral(*item));
    if (typed->constant_null) {
      in_expr->in_has_null = true;
    } else {
      items.push_back(std::move(typed));
    }
  }
  TypedPtr& left = in_expr->children[0];
  const std::optional<std::string> format = left->timestamp_format;
  ExprType type = left->type;
  if (type == ExprType::kNull) return Status::OK();
  auto does_not_fit = [&](const TypedExpr& item) {
    return ExprTypeError(item.offset, "'in' list item " + DescribeConstant(item) +
                                          " does not fit " + ExprTypeName(type));
  };
  if (type == ExprType::kString && !items.empty() && IsNumeric(items[0]->type)) {
    // A string compared with numbers is parsed as a number, as in comparisons.
    left = CastTo(std::move(left), ExprType::kFloat);
    type = ExprType::kFloat;
  }
  if (type == ExprType::kDate) {
    for (TypedPtr& item : items) {
      if (item->type != ExprType::kString) return does_not_fit(*item);
      RETURN_IF_ERROR(ParseTemporalConstant(item.get(), "a date", format));
      if (item->type == ExprType::kTimestamp) type = ExprType::kTimestamp;
    }
    left = CastTo(std::move(left), type);
  }
  for (TypedPtr& item : items) {
    if (type == ExprType::kTimestamp && item->type == ExprType::kString) {
      RETURN_IF_ERROR(ParseTemporalConstant(item.get(), "a timestamp", format));
    }
    switch (type) {
      case ExprType::kBool:
        if (item->type != ExprType::kBool) return does_not_fit(*item);
        in_expr->in_ints.push_back(item->int_value);
        break;
      case ExprType::kInt:
        if (item->type == ExprType::kFloat) {
          // An integral float fits an int64 column; 1.5 never could.
          const double value = item->float_value;
          if (value != std::trunc(value) || !(value >= -9223372036854775808.0) ||
              !(value < 9223372036854775808.0)) {
            return does_not_fit(*item);
          }
          in_expr->in_ints.push_back(static_cast<int64_t>(value));
        } else if (item->type == ExprType::kInt) {
          in_expr->in_ints.push_back(item->int_value);
        } else {
          return does_not_fit(*item);
        }
        break;
      case ExprType::kFloat:
        if (!IsNumeric(item->type)) return does_not_fit(*item);
        in_expr->in_floats.push_back(CastTo(std::move(item), ExprType::kFloat)->float_value);
        break;
      case ExprType::kString:
        if (item->type != ExprType::kString) return does_not_fit(*item);
        in_expr->in_strings.push_back(item->string_value);
        break;
      case ExprType::kDate:
      case ExprType::kTimestamp: {
        if (!IsTemporal(item->type)) return does_not_fit(*item);
        TypedPtr cast = CastTo(std::move(item), type);
        if (!cast->constant_null) in_expr->in_ints.push_back(cast->int_value);
        break;
      }
      case ExprType::kNull: break;
    }
  }
  auto sort_unique = [](auto* values) {
    std::sort(values->begin(), values->end());
    values->erase(std::unique(values->begin(), values->end()), values->end());
  };
  sort_unique(&in_expr->in_ints);
  sort_unique(&in_expr->in_floats);
  sort_unique(&in_expr->in_strings);
  return Status::OK();
}

}  // namespace griffin
