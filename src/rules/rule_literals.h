// Turns rule-file scalars into typed Literals (rule_set.h) for the column
// they are compared with, using the same parsers as the engine
// (util/value_parse.h), so a bound in the file and a value in the data mean
// the same thing. Internal to rules/.
#pragma once

#include <optional>
#include <string>

#include "rules/rule_set.h"
#include "rules/yaml_helpers.h"
#include "util/status.h"
#include "util/value_type.h"

namespace griffin::rules_internal {

// The column a literal is compared with.
struct ColumnTypeInfo {
  ValueType type = ValueType::kString;
  std::optional<std::string> timestamp_format;  // `format:` of date/timestamp columns
};

// A bound of min/max/gt/lt (or of a table min/max metric on a date/timestamp
// column). int64: an integer (kInt) or any number (kFloat); float64: a number
// (kFloat); date: a date (kDate), a timestamp (kTimestamp) or `now`;
// timestamp: a timestamp, a date (midnight UTC) or `now` (kTimestamp/kNow).
// NaN is never a bound. string and bool columns take no bounds (the caller
// reports that before calling).
Result<Literal> ParseBound(const YamlContext& ctx, const Field& field, const ColumnTypeInfo& column);

// A value of an in/not_in list, parsed as the column's type exactly
// (string: kString, int64: kInt, float64: kFloat, bool: kBool, date: kDate,
// timestamp: kTimestamp).
Result<Literal> ParseColumnValue(const YamlContext& ctx, const Field& field,
                                 const ColumnTypeInfo& column);

// A number: kInt when it is an integer and `prefer_int`, else kFloat. NaN is refused.
Result<Literal> ParseNumberBound(const YamlContext& ctx, const Field& field, bool prefer_int);

}  // namespace griffin::rules_internal
