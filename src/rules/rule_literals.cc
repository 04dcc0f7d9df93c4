#include "rules/rule_literals.h"

#include <cmath>

#include "util/value_parse.h"

namespace griffin::rules_internal {

namespace {

constexpr int64_t kMicrosPerDay = 86400LL * 1000000;

Literal MakeLiteral(Literal::Kind kind, const std::string& text) {
  Literal literal;
  literal.kind = kind;
  literal.text = text;
  return literal;
}

Result<std::string> ScalarText(const YamlContext& ctx, const Field& field) {
  if (field.node.IsNull()) {
    return ctx.Error(field, "expected a value, found nothing (null is not a value here)");
  }
  if (!field.node.IsScalar()) {
    return ctx.Error(field, std::string("expected a single value, found ") +
                                (field.node.IsMap() ? "a map" : "a list"));
  }
  return field.node.Scalar();
}

std::optional<int64_t> ParseWithFormat(const std::string& text, const ColumnTypeInfo& column) {
  if (!column.timestamp_format.has_value()) return std::nullopt;
  return ParseTimestampWithFormat(text, *column.timestamp_format);
}

int64_t FloorDays(int64_t micros) {
  int64_t days = micros / kMicrosPerDay;
  if (micros % kMicrosPerDay < 0) --days;
  return days;
}

std::string Quoted(const std::string& text) { return "'" + text + "'"; }

}  // namespace

Result<Literal> ParseNumberBound(const YamlContext& ctx, const Field& field, bool prefer_int) {
  ASSIGN_OR_RETURN(std::string text, ScalarText(ctx, field));
  if (prefer_int) {
    if (std::optional<int64_t> value = ParseInt64(text)) {
      Literal literal = MakeLiteral(Literal::Kind::kInt, text);
      literal.int_value = *value;
      return literal;
    }
  }
  std::optional<double> value = ParseFloat64(NumberText(text));
  if (!value.has_value()) return ctx.Error(field, Quoted(text) + " is not a number");
  if (std::isnan(*value)) return ctx.Error(field, "nan is not a usable bound");
  Literal literal = MakeLiteral(Literal::Kind::kFloat, text);
  literal.float_value = *value;
  return literal;
}

Result<Literal> ParseBound(const YamlContext& ctx, const Field& field,
                           const ColumnTypeInfo& column) {
  switch (column.type) {
    case ValueType::kInt64: return ParseNumberBound(ctx, field, /*prefer_int=*/true);
    case ValueType::kFloat64: return ParseNumberBound(ctx, field, /*prefer_int=*/false);
    case ValueType::kDate:
    case ValueType::kTimestamp: break;
    case ValueType::kString:
    case ValueType::kBool:
      return ctx.Error(field, std::string("a bound does not apply to ") +
                                  ValueTypeName(column.type) + " columns");
  }
  ASSIGN_OR_RETURN(std::string text, ScalarText(ctx, field));
  if (text == "now") return MakeLiteral(Literal::Kind::kNow, text);
  const bool is_date_column = column.type == ValueType::kDate;
  Literal literal;
  if (std::optional<int64_t> micros = ParseTimestamp(text)) {
    literal = MakeLiteral(Literal::Kind::kTimestamp, text);
    literal.int_value = *micros;
  } else if (std::optional<int64_t> days = ParseDate(text)) {
    literal = MakeLiteral(is_date_column ? Literal::Kind::kDate : Literal::Kind::kTimestamp, text);
    literal.int_value = is_date_column ? *days : *days * kMicrosPerDay;
  } else if (std::optional<int64_t> formatted = ParseWithFormat(text, column)) {
    literal = MakeLiteral(is_date_column ? Literal::Kind::kDate : Literal::Kind::kTimestamp, text);
    literal.int_value = is_date_column ? FloorDays(*formatted) : *formatted;
  } else {
    return ctx.Error(field, Quoted(text) + " is not a date, a timestamp or now");
  }
  return literal;
}

Result<Literal> ParseColumnValue(const YamlContext& ctx, const Field& field,
                                 const ColumnTypeInfo& column) {
  ASSIGN_OR_RETURN(std::string text, ScalarText(ctx, field));
  const std::string not_a = Quoted(text) + " does not parse as " + ValueTypeName(column.type);
  Literal literal;
  switch (column.type) {
    case ValueType::kString:
      return MakeLiteral(Literal::Kind::kString, text);
    case ValueType::kInt64: {
      std::optional<int64_t> value = ParseInt64(text);
      if (!value) return ctx.Error(field, not_a);
      literal = MakeLiteral(Literal::Kind::kInt, text);
      literal.int_value = *value;
      return literal;
    }
    case ValueType::kFloat64: {
      std::optional<double> value = ParseFloat64(NumberText(text));
      if (!value) return ctx.Error(field, not_a);
      literal = MakeLiteral(Literal::Kind::kFloat, text);
      literal.float_value = *value;
      return literal;
    }
    case ValueType::kBool: {
      std::optional<int64_t> value = ParseBool(text);
      if (!value) return ctx.Error(field, not_a);
      literal = MakeLiteral(Literal::Kind::kBool, text);
      literal.int_value = *value;
      return literal;
    }
    case ValueType::kDate: {
      std::optional<int64_t> days = ParseDate(text);
      if (!days) {
        if (std::optional<int64_t> micros = ParseWithFormat(text, column)) days = FloorDays(*micros);
      }
      if (!days) return ctx.Error(field, not_a);
      literal = MakeLiteral(Literal::Kind::kDate, text);
      literal.int_value = *days;
      return literal;
    }
    case ValueType::kTimestamp: {
      std::optional<int64_t> micros = ParseTimestamp(text);
      if (!micros) {
        if (std::optional<int64_t> days = ParseDate(text)) micros = *days * kMicrosPerDay;
      }
      if (!micros) micros = ParseWithFormat(text, column);
      if (!micros) return ctx.Error(field, not_a);
      literal = MakeLiteral(Literal::Kind::kTimestamp, text);
      literal.int_value = *micros;
      return literal;
    }
  }
  return ctx.Error(field, not_a);
}

}  // namespace griffin::rules_internal
