#include "rules/yaml_helpers.h"

#include <yaml-cpp/depthguard.h>

#include <cmath>
#include <optional>
#include <unordered_map>

#include "util/value_parse.h"

namespace griffin::rules_internal {

Status YamlContext::Error(int line, std::string_view path, std::string_view what) const {
  std::string message = file_ + ":" + std::to_string(line) + ": ";
  if (!path.empty()) {
    message.append(path);
    message.append(": ");
  }
  message.append(what);
  return Status::RuleError(std::move(message));
}

SourceLocation LocationOf(const YAML::Node& node) {
  const YAML::Mark mark = node.Mark();
  if (mark.is_null() || mark.line < 0) return {};
  return {mark.line + 1, mark.column + 1};
}

Field RootField(const YAML::Node& root) {
  Field field;
  field.node.reset(root);
  field.key_location = LocationOf(root);
  field.line = field.key_location.line > 0 ? field.key_location.line : 1;
  return field;
}

namespace {

// A list item's own line; an empty item's mark points at the next token, so it
// borrows the line of its list.
int ValueLine(const YAML::Node& value, int key_line) {
  if (value.IsNull()) return key_line;
  const SourceLocation location = LocationOf(value);
  return location.line > 0 ? location.line : key_line;
}

std::string KindOf(const YAML::Node& node) {
  if (node.IsMap()) return "a map";
  if (node.IsSequence()) return "a list";
  if (node.IsNull()) return "nothing";
  return "'" + node.Scalar() + "'";
}

}  // namespace

Result<std::vector<Field>> MapFields(const YamlContext& ctx, const Field& map,
                                     std::string_view what) {
  if (!map.node.IsMap()) {
    return ctx.Error(map, "expected " + std::string(what) + ", found " + KindOf(map.node));
  }
  std::vector<Field> fields;
  std::unordered_map<std::string, int> first_line;
  for (auto it = map.node.begin(); it != map.node.end(); ++it) {
    // Copies: `it->first` is a temporary proxy in yaml-cpp.
    const YAML::Node key = it->first;
    Field field;
    field.node.reset(it->second);
    field.key_location = LocationOf(key);
    if (field.key_location.line == 0) field.key_location = {map.line, 1};
    if (!key.IsScalar()) {
      return ctx.Error(field.key_location.line, map.path, "keys must be plain names");
    }
    field.key = key.Scalar();
    field.path = map.path.empty() ? field.key : map.path + "." + field.key;
    field.line = field.key_location.line;  // errors about a value name its key's line
    auto [previous, inserted] = first_line.emplace(field.key, field.key_location.line);
    if (!inserted) {
      return ctx.Error(field.key_location.line, field.path,
                       "duplicate key (first given at line " + std::to_string(previous->second) +
                           ")");
    }
    fields.push_back(std::move(field));
  }
  return fields;
}

Result<std::vector<Field>> ListItems(const YamlContext& ctx, const Field& list,
                                     std::string_view what) {
  if (!list.node.IsSequence()) {
    return ctx.Error(list, "expected " + std::string(what) + ", found " + KindOf(list.node));
  }
  std::vector<Field> items;
  size_t index = 0;
  for (auto it = list.node.begin(); it != list.node.end(); ++it, ++index) {
    Field item;
    item.node.reset(static_cast<const YAML::Node&>(*it));
    item.path = list.path + "[" + std::to_string(index) + "]";
    item.line = ValueLine(item.node, list.line);
    item.key_location = LocationOf(item.node);
    if (item.key_location.line == 0 || item.node.IsNull()) item.key_location = {item.line, 1};
    items.push_back(std::move(item));
  }
  return items;
}

Status UnknownKey(const YamlContext& ctx, const Field& field,
                  std::initializer_list<std::string_view> expected) {
  std::string what = "unknown key (expected one of: ";
  bool first = true;
  for (std::string_view key : expected) {
    if (!first) what.append(", ");
    what.append(key);
    first = false;
  }
  what.append(")");
  return ctx.Error(field.key_location.line, field.path, what);
}

Result<std::string> ReadString(const YamlContext& ctx, const Field& field) {
  if (!field.node.IsScalar()) {
    return ctx.Error(field, "expected text, found " + KindOf(field.node));
  }
  return field.node.Scalar();
}

Result<bool> ReadBool(const YamlContext& ctx, const Field& field) {
  if (field.node.IsScalar()) {
    const std::string& text = field.node.Scalar();
    if (text == "true" || text == "True" || text == "TRUE") return true;
    if (text == "false" || text == "False" || text == "FALSE") return false;
  }
  return ctx.Error(field, "expected true or false, found " + KindOf(field.node));
}

std::string NumberText(const std::string& scalar) {
  if (scalar == ".inf" || scalar == ".Inf" || scalar == ".INF" || scalar == "+.inf" ||
      scalar == "+.Inf" || scalar == "+.INF") {
    return "inf";
  }
  if (scalar == "-.inf" || scalar == "-.Inf" || scalar == "-.INF") return "-inf";
  if (scalar == ".nan" || scalar == ".NaN" || scalar == ".NAN") return "nan";
  return scalar;
}

Result<int64_t> ReadWholeNumber(const YamlContext& ctx, const Field& field, int64_t low, int64_t high) {
  std::optional<int64_t> value;
  if (field.node.IsScalar()) value = ParseInt64(field.node.Scalar());
  if (!value.has_value() || *value < low || *value > high) {
    return ctx.Error(field, "expected a whole number from " + std::to_string(low) + " to " + std::to_string(high));
  }
  return *value;
}

Result<double> ReadNumberInRange(const YamlContext& ctx, const Field& field, double low,
                                 double high) {
  std::optional<double> value;
  if (field.node.IsScalar()) value = ParseFloat64(NumberText(field.node.Scalar()));
  if (!value.has_value()) {
    return ctx.Error(field, "expected a number, found " + KindOf(field.node));
  }
  if (!(*value >= low && *value <= high)) {
    return ctx.Error(field, "must be between " + FormatDouble(low) + " and " + FormatDouble(high) +
                                ", found " + field.node.Scalar());
  }
  return *value;
}

Result<Severity> ReadSeverity(const YamlContext& ctx, const Field& field) {
  if (field.node.IsScalar()) {
    if (field.node.Scalar() == "error") return Severity::kError;
    if (field.node.Scalar() == "warn") return Severity::kWarn;
  }
  return ctx.Error(field, "expected error or warn, found " + KindOf(field.node));
}

Result<bool> ReadCheckOption(const YamlContext& ctx, const Field& field, bool allow_mostly,
                             CheckOptions* options) {
  if (field.key == "severity") {
    ASSIGN_OR_RETURN(options->severity, ReadSeverity(ctx, field));
    return true;
  }
  if (field.key == "mostly" && allow_mostly) {
    ASSIGN_OR_RETURN(options->mostly, ReadNumberInRange(ctx, field, 0.0, 1.0));
    return true;
  }
  if (field.key == "message") {
    ASSIGN_OR_RETURN(options->message, ReadString(ctx, field));
    return true;
  }
  return false;
}

Result<YAML::Node> ParseYamlText(const YamlContext& ctx, const std::string& text) {
  try {
    return YAML::Load(text);
  } catch (const YAML::DeepRecursion& e) {
    // yaml-cpp says only "bad file" when nesting passes its limit.
    return ctx.Error(e.mark.is_null() ? 1 : e.mark.line + 1, "",
                     "invalid YAML: nested " + std::to_string(e.depth()) + " levels deep (the limit is " +
                         std::to_string(e.depth() - 1) + ")");
  } catch (const YAML::ParserException& e) {
    return ctx.Error(e.mark.is_null() ? 1 : e.mark.line + 1, "", "invalid YAML: " + e.msg);
  } catch (const YAML::Exception& e) {
    return Status::RuleError(ctx.file() + ": invalid YAML: " + e.msg);
  }
}

Result<Field> SplitLongForm(const YamlContext& ctx, const Field& field, const char* value_key,
                            bool allow_mostly, CheckOptions* options) {
  if (!field.node.IsMap()) return field;
  ASSIGN_OR_RETURN(std::vector<Field> entries, MapFields(ctx, field));
  std::optional<Field> value;
  for (const Field& entry : entries) {
    if (entry.key == value_key) {
      value = entry;
      continue;
    }
    ASSIGN_OR_RETURN(bool is_option, ReadCheckOption(ctx, entry, allow_mostly, options));
    if (is_option) continue;
    if (allow_mostly) return UnknownKey(ctx, entry, {value_key, "severity", "mostly", "message"});
    return UnknownKey(ctx, entry, {value_key, "severity", "message"});
  }
  if (!value.has_value()) return ctx.Error(field, std::string("missing ") + value_key);
  return *value;
}

}  // namespace griffin::rules_internal
