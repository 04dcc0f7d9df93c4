#include "rules/column_rule_loader.h"

#include <re2/re2.h>

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "rules/bound_ranges.h"
#include "rules/history_check_loader.h"
#include "rules/rule_literals.h"
#include "util/value_parse.h"

namespace griffin::rules_internal {

namespace {

std::optional<ColumnCheckKind> CheckKindFromKey(const std::string& key) {
  static constexpr ColumnCheckKind kKinds[] = {
      ColumnCheckKind::kNotNull, ColumnCheckKind::kUnique,   ColumnCheckKind::kMin,
      ColumnCheckKind::kMax,     ColumnCheckKind::kGt,       ColumnCheckKind::kLt,
      ColumnCheckKind::kFinite,  ColumnCheckKind::kRegex,    ColumnCheckKind::kContains,
      ColumnCheckKind::kIn,      ColumnCheckKind::kNotIn,    ColumnCheckKind::kLength};
  for (ColumnCheckKind kind : kKinds) {
    if (key == ColumnCheckKindName(kind)) return kind;
  }
  return std::nullopt;
}

Status UnknownColumnKey(const YamlContext& ctx, const Field& field) {
  return UnknownKey(ctx, field,
                    {"type", "required", "format", "not_null", "unique", "min", "max", "gt", "lt",
                     "finite", "regex", "contains", "in", "not_in", "length", "drift"});
}

// The error for a check that does not fit the column's type, if it does not.
Status CheckFitsType(const YamlContext& ctx, const Field& field, ColumnCheckKind kind,
                     ValueType type, bool has_type) {
  const std::string name = ColumnCheckKindName(kind);
  const std::string hint = has_type ? "" : " (the column has no type, so it is string: add a type)";
  switch (kind) {
    case ColumnCheckKind::kMin:
    case ColumnCheckKind::kMax:
    case ColumnCheckKind::kGt:
    case ColumnCheckKind::kLt:
      if (type == ValueType::kString || type == ValueType::kBool) {
        return ctx.Error(field.key_location.line, field.path,
                         name + " does not apply to " + ValueTypeName(type) + " columns" + hint);
      }
      break;
    case ColumnCheckKind::kFinite:
      if (type != ValueType::kFloat64) {
        return ctx.Error(field.key_location.line, field.path,
                         "finite applies only to float64 columns, not " +
                             std::string(ValueTypeName(type)) + hint);
      }
      break;
    case ColumnCheckKind::kRegex:
    case ColumnCheckKind::kContains:
    case ColumnCheckKind::kLength:
      if (type != ValueType::kString) {
        return ctx.Error(field.key_location.line, field.path,
                         name + " applies only to string columns, not " + ValueTypeName(type));
      }
      break;
    default:
      break;
  }
  return Status::OK();
}

Result<int64_t> ReadLength(const YamlContext& ctx, const Field& field) {
  std::optional<int64_t> value;
  if (field.node.IsScalar()) value = ParseInt64(field.node.Scalar());
  if (!value.has_value() || *value < 0) {
    return ctx.Error(field, "expected a whole number >= 0");
  }
  return *value;
}

Status LoadLength(const YamlContext& ctx, const Field& field, ColumnCheck* check) {
  if (!field.node.IsMap()) {
    return ctx.Error(field, "expected a map like {min: 1, max: 64}");
  }
  ASSIGN_OR_RETURN(std::vector<Field> entries, MapFields(ctx, field));
  for (const Field& entry : entries) {
    if (entry.key == "min") {
      ASSIGN_OR_RETURN(check->length_min, ReadLength(ctx, entry));
    } else if (entry.key == "max") {
      ASSIGN_OR_RETURN(check->length_max, ReadLength(ctx, entry));
    } else {
      ASSIGN_OR_RETURN(bool is_option, ReadCheckOption(ctx, entry, true, &check->options));
      if (!is_option) return UnknownKey(ctx, entry, {"min", "max", "severity", "mostly", "message"});
    }
  }
  if (!check->length_min && !check->length_max) return ctx.Error(field, "needs min or max");
  if (check->length_min && check->length_max && *check->length_min > *check->length_max) {
    return ctx.Error(field, "min is greater than max");
  }
  return Status::OK();
}

Status LoadPattern(const YamlContext& ctx, const Field& value, ColumnCheck* check) {
  ASSIGN_OR_RETURN(check->pattern, ReadString(ctx, value));
  RE2 regex(check->pattern, RE2::Quiet);
  if (!regex.ok()) return ctx.Error(value, "bad regex: " + regex.error());
  return Status::OK();
}

Status LoadValueList(const YamlContext& ctx, const Field& value, const ColumnTypeInfo& column,
                     ColumnCheck* check) {
  ASSIGN_OR_RETURN(std::vector<Field> items, ListItems(ctx, value, "a list of values"));
  if (items.empty()) return ctx.Error(value, "needs at least one value");
  for (const Field& item : items) {
    ASSIGN_OR_RETURN(Literal literal, ParseColumnValue(ctx, item, column));
    check->values.push_back(std::move(literal));
  }
  return Status::OK();
}

// One check key of a column; nullopt for a flag set to false (no check).
Result<std::optional<ColumnCheck>> LoadCheck(const YamlContext& ctx, const Field& field,
                                             ColumnCheckKind kind, const ColumnTypeInfo& column,
                                             bool has_type) {
  RETURN_IF_ERROR(CheckFitsType(ctx, field, kind, column.type, has_type));
  ColumnCheck check;
  check.kind = kind;
  check.location = field.key_location;
  if (kind == ColumnCheckKind::kLength) {
    RETURN_IF_ERROR(LoadLength(ctx, field, &check));
    return std::optional<ColumnCheck>(std::move(check));
  }
  const bool is_pattern = kind == ColumnCheckKind::kRegex || kind == ColumnCheckKind::kContains;
  const bool is_list = kind == ColumnCheckKind::kIn || kind == ColumnCheckKind::kNotIn;
  const char* value_key = is_pattern ? "pattern" : is_list ? "values" : "value";
  ASSIGN_OR_RETURN(Field value, SplitLongForm(ctx, field, value_key, /*allow_mostly=*/true, &check.options));
  switch (kind) {
    case ColumnCheckKind::kNotNull:
    case ColumnCheckKind::kUnique:
    case ColumnCheckKind::kFinite: {
      ASSIGN_OR_RETURN(bool enabled, ReadBool(ctx, value));
      if (!enabled) return std::optional<ColumnCheck>();
      break;
    }
    case ColumnCheckKind::kMin:
    case ColumnCheckKind::kMax:
    case ColumnCheckKind::kGt:
    case ColumnCheckKind::kLt: {
      ASSIGN_OR_RETURN(check.bound, ParseBound(ctx, value, column));
      break;
    }
    case ColumnCheckKind::kRegex:
    case ColumnCheckKind::kContains:
      RETURN_IF_ERROR(LoadPattern(ctx, value, &check));
      break;
    case ColumnCheckKind::kIn:
    case ColumnCheckKind::kNotIn:
      RETURN_IF_ERROR(LoadValueList(ctx, value, column, &check));
      break;
    default:
      return Status::Internal("unexpected column check kind");
  }
  return std::optional<ColumnCheck>(std::move(check));
}

bool IsBound(ColumnCheckKind kind) {
  return kind == ColumnCheckKind::kMin || kind == ColumnCheckKind::kMax ||
         kind == ColumnCheckKind::kGt || kind == ColumnCheckKind::kLt;
}

// A bound check of a column with the key that wrote it.
struct LoadedBound {
  const ColumnCheck* check;
  const Field* field;
};

// Refuses a lower bound (min, gt) and an upper bound (max, lt) of one column
// that leave no value that can pass both; the error names the later key.
Status CheckBoundsMeet(const YamlContext& ctx, ValueType type,
                       const std::vector<LoadedBound>& bounds) {
  for (const LoadedBound& lower : bounds) {
    const ColumnCheckKind lower_kind = lower.check->kind;
    if (lower_kind != ColumnCheckKind::kMin && lower_kind != ColumnCheckKind::kGt) continue;
    for (const LoadedBound& upper : bounds) {
      const ColumnCheckKind upper_kind = upper.check->kind;
      if (upper_kind != ColumnCheckKind::kMax && upper_kind != ColumnCheckKind::kLt) continue;
      std::optional<std::string> problem = EmptyRangeProblem(
          type,
          RangeEnd{ColumnCheckKindName(lower_kind), &lower.check->bound,
                   lower_kind == ColumnCheckKind::kMin},
          RangeEnd{ColumnCheckKindName(upper_kind), &upper.check->bound,
                   upper_kind == ColumnCheckKind::kMax});
      if (!problem.has_value()) continue;
      const bool upper_is_later = lower.check->location < upper.check->location;
      const Field& later = upper_is_later ? *upper.field : *lower.field;
      const Field& earlier = upper_is_later ? *lower.field : *upper.field;
      return ctx.Error(later.key_location.line, later.path,
                       *problem + " (" + earlier.key + " is on line " +
                           std::to_string(earlier.key_location.line) + ")");
    }
  }
  return Status::OK();
}

// `type: int64` or `type: {value: int64, severity, mostly, message}`.
Result<ColumnCheck> LoadTypeCheck(const YamlContext& ctx, const Field& field, ValueType* type) {
  ColumnCheck check;
  check.kind = ColumnCheckKind::kType;
  check.location = field.key_location;
  ASSIGN_OR_RETURN(Field value, SplitLongForm(ctx, field, "value", /*allow_mostly=*/true, &check.options));
  ASSIGN_OR_RETURN(std::string name, ReadString(ctx, value));
  std::optional<ValueType> parsed = ParseValueTypeName(name);
  if (!parsed.has_value()) {
    return ctx.Error(value, "unknown type '" + name +
                                "' (expected one of: string, int64, float64, bool, date, "
                                "timestamp)");
  }
  *type = *parsed;
  return check;
}

Result<ColumnRule> LoadColumn(const YamlContext& ctx, std::string name, const Field& body,
                              SourceLocation location, bool list_form) {
  ColumnRule rule;
  rule.name = std::move(name);
  rule.location = location;
  if (body.node.IsNull()) return rule;
  ASSIGN_OR_RETURN(std::vector<Field> entries, MapFields(ctx, body, "a map of checks"));
  // `type` and `format` first: they decide how every other key reads.
  std::optional<ColumnCheck> type_check;
  ColumnTypeInfo column;
  for (const Field& entry : entries) {
    if (entry.key == "type") {
      ASSIGN_OR_RETURN(type_check, LoadTypeCheck(ctx, entry, &rule.type));
    }
  }
  column.type = rule.type;
  for (const Field& entry : entries) {
    if (entry.key != "format") continue;
    if (rule.type != ValueType::kDate && rule.type != ValueType::kTimestamp) {
      return ctx.Error(entry.key_location.line, entry.path,
                       "format applies only to date and timestamp columns");
    }
    ASSIGN_OR_RETURN(std::string format, ReadString(ctx, entry));
    if (std::optional<std::string> problem = CheckTimestampFormat(format)) {
      return ctx.Error(entry, *problem);
    }
    rule.timestamp_format = format;
    column.timestamp_format = format;
  }
  std::vector<std::pair<size_t, const Field*>> bound_entries;  // index in rule.checks, key
  for (const Field& entry : entries) {
    if (entry.key == "type") {
      rule.checks.push_back(*type_check);
    } else if (entry.key == "format" || (list_form && entry.key == "name")) {
      continue;
    } else if (entry.key == "required") {
      ASSIGN_OR_RETURN(rule.required, ReadBool(ctx, entry));
    } else if (entry.key == "drift") {
      ASSIGN_OR_RETURN(rule.drift, LoadDriftCheck(ctx, entry));
    } else if (std::optional<ColumnCheckKind> kind = CheckKindFromKey(entry.key)) {
      ASSIGN_OR_RETURN(std::optional<ColumnCheck> check,
                       LoadCheck(ctx, entry, *kind, column, type_check.has_value()));
      if (!check.has_value()) continue;
      if (IsBound(*kind)) bound_entries.emplace_back(rule.checks.size(), &entry);
      rule.checks.push_back(std::move(*check));
    } else {
      return UnknownColumnKey(ctx, entry);
    }
  }
  std::vector<LoadedBound> bounds;
  for (const auto& [index, field] : bound_entries) bounds.push_back({&rule.checks[index], field});
  RETURN_IF_ERROR(CheckBoundsMeet(ctx, rule.type, bounds));
  return rule;
}

}  // namespace

Result<std::vector<ColumnRule>> LoadColumns(const YamlContext& ctx, const Field& columns) {
  std::vector<ColumnRule> rules;
  if (columns.node.IsNull()) return rules;
  if (columns.node.IsSequence()) {
    ASSIGN_OR_RETURN(std::vector<Field> items, ListItems(ctx, columns));
    std::set<std::string> seen;
    for (const Field& item : items) {
      ASSIGN_OR_RETURN(std::vector<Field> entries,
                       MapFields(ctx, item, "a map like {name: id, type: int64}"));
      const Field* name_field = nullptr;
      for (const Field& entry : entries) {
        if (entry.key == "name") name_field = &entry;
      }
      if (name_field == nullptr) return ctx.Error(item, "missing name");
      ASSIGN_OR_RETURN(std::string name, ReadString(ctx, *name_field));
      if (name.empty()) return ctx.Error(*name_field, "column names cannot be empty");
      if (!seen.insert(name).second) {
        return ctx.Error(*name_field, "column '" + name + "' is declared twice");
      }
      ASSIGN_OR_RETURN(ColumnRule rule,
                       LoadColumn(ctx, name, item, name_field->key_location, /*list_form=*/true));
      rules.push_back(std::move(rule));
    }
    return rules;
  }
  ASSIGN_OR_RETURN(std::vector<Field> entries,
                   MapFields(ctx, columns, "a map of column names to their checks"));
  for (const Field& entry : entries) {
    if (entry.key.empty()) {
      return ctx.Error(entry.key_location.line, entry.path, "column names cannot be empty");
    }
    ASSIGN_OR_RETURN(ColumnRule rule,
                     LoadColumn(ctx, entry.key, entry, entry.key_location, /*list_form=*/false));
    rules.push_back(std::move(rule));
  }
  return rules;
}

}  // namespace griffin::rules_internal

