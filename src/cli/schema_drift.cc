#include "cli/schema_drift.h"

#include <map>
#include <optional>

#include <simdjson.h>

namespace griffin {
namespace {

// name -> type, in column order.
std::optional<std::vector<std::pair<std::string, std::string>>> ParseSchema(const std::string& json) {
  simdjson::dom::parser parser;
  simdjson::dom::array columns;
  if (parser.parse(json).get_array().get(columns)) return std::nullopt;
  std::vector<std::pair<std::string, std::string>> out;
  for (simdjson::dom::element column : columns) {
    std::string_view name, type;
    if (column["name"].get_string().get(name) || column["type"].get_string().get(type)) return std::nullopt;
    out.emplace_back(std::string(name), std::string(type));
  }
  return out;
}

}  // namespace

std::vector<std::string> DescribeSchemaChanges(const std::string& input, const std::string& before,
                                               const std::string& after) {
  auto old_columns = ParseSchema(before);
  auto new_columns = ParseSchema(after);
  if (!old_columns || !new_columns) return {};
  std::map<std::string, std::string> old_types(old_columns->begin(), old_columns->end());
  std::map<std::string, std::string> new_types(new_columns->begin(), new_columns->end());
  std::vector<std::string> changes;
  for (const auto& [name, type] : *new_columns) {
    auto it = old_types.find(name);
    if (it == old_types.end()) changes.push_back(input + ": column '" + name + "' added");
    else if (it->second != type)
      changes.push_back(input + ": column '" + name + "' changed type from " + it->second + " to " + type);
  }
  for (const auto& [name, type] : *old_columns)
    if (!new_types.count(name)) changes.push_back(input + ": column '" + name + "' removed");
  return changes;
}

}  // namespace griffin
