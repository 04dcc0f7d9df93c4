#include "exec/input_schema.h"

#include "report/json_writer.h"

namespace griffin {

std::string InputSchemaJson(const Batch& batch) {
  std::string schema = "[";
  auto add = [&schema](const std::string& name, const std::string& type) {
    if (schema.size() > 1) schema += ", ";
    schema += "{\"name\": ";
    AppendJsonString(name, &schema);
    schema += ", \"type\": ";
    AppendJsonString(type, &schema);
    schema += "}";
  };
  if (batch.header_columns) {  // a projected CSV/TSV input: every header column is text
    for (const std::string& name : *batch.header_columns) add(name, "text");
  } else {
    for (const BatchColumn& column : batch.columns)
      add(column.name, column.array ? column.array->type()->ToString()
                                    : (column.text.json_kinds.empty() ? "text" : "json"));
  }
  return schema + "]";
}

}  // namespace griffin
