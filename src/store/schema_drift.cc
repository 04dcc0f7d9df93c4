#include "store/schema_drift.h"

#include <map>
#include <optional>

#include <simdjson.h>

#include "io/source_registry.h"

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

Status UpdateSchemaCache(RunStore& store, const std::string& rules_sha256, const std::vector<InputLineage>& inputs,
                         Report* report) {
  for (size_t i = 0; i < inputs.size() && i < report->input_schemas.size(); ++i) {
    const InputLineage& input = inputs[i];
    const bool table = !input.schema_json.empty();
    // A Delta table: no size, the version read as its identity (TableVersionRead).
    const bool versioned = !table && input.size < 0 && TableVersionRead(input.path).has_value();
    const std::string& schema = table ? input.schema_json : report->input_schemas[i];
    if ((!table && !versioned && input.size < 0) || schema.empty()) continue;  // stdin has no identity
    const SchemaCacheKey key = table || versioned
                                   ? SchemaCacheKey{input.path, 0, 0, rules_sha256, input.etag}
                                   : SchemaCacheKey{input.path, input.size, input.mtime_ns, rules_sha256};
    ASSIGN_OR_RETURN(std::optional<std::string> cached, store.CachedSchema(key));
    if (cached && *cached == schema) continue;  // unchanged file: the cached snapshot stands
    ASSIGN_OR_RETURN(std::optional<std::string> previous, store.PreviousSchema(input.path, rules_sha256));
    if (previous) {
      for (std::string& change : DescribeSchemaChanges(input.path, *previous, schema))
        report->schema_changes.push_back(std::move(change));
    }
    RETURN_IF_ERROR(store.CacheSchema(key, schema));
  }
  return Status::OK();
}

}  // namespace griffin
