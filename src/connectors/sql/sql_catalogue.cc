#include "connectors/sql/sql_catalogue.h"

#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/c/bridge.h>
#include <arrow/record_batch.h>

#include "connectors/sql/sql_connect.h"
#include "connectors/sql/sql_increment.h"
#include "report/json_writer.h"
#include "util/sha256.h"

namespace griffin::sql {
namespace {

std::shared_ptr<arrow::Array> TextValue(const std::string& text) {
  arrow::StringBuilder builder;
  (void)builder.Append(text);
  std::shared_ptr<arrow::Array> array;
  (void)builder.Finish(&array);
  return array;
}

// The catalogue query of an engine and its parameters (the table's name).
SqlCondition CatalogueQuery(const SqlTarget& target) {
  arrow::ArrayVector params;
  std::string sql;
  switch (target.engine) {
    case SqlEngine::kSqlite:
      sql = "SELECT name, type FROM pragma_table_info(?1, ?2) ORDER BY cid";
      params = {TextValue(target.table), TextValue(target.schema.value_or("main"))};
      break;
    case SqlEngine::kDuckdb:
      sql = "SELECT column_name, data_type FROM information_schema.columns"
            " WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position";
      params = {TextValue(target.schema.value_or("main")), TextValue(target.table)};
      break;
    case SqlEngine::kPostgresql:
      sql = "SELECT a.attname::text, format_type(a.atttypid, a.atttypmod) FROM pg_catalog.pg_attribute a"
            " WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum";
      params = {TextValue(QuotedTableName(target))};
      break;
  }
  arrow::FieldVector fields;
  for (size_t i = 0; i < params.size(); ++i) fields.push_back(arrow::field("p" + std::to_string(i + 1), arrow::utf8()));
  return {sql, arrow::RecordBatch::Make(arrow::schema(fields), 1, params)};
}

std::string CellText(const arrow::Array& column, int64_t row) {
  if (column.IsNull(row)) return "";
  auto scalar = column.GetScalar(row);
  return scalar.ok() ? (*scalar)->ToString() : "";
}

}  // namespace

TableSchema MakeTableSchema(const std::vector<std::pair<std::string, std::string>>& columns) {
  std::string json = "[";
  for (size_t i = 0; i < columns.size(); ++i) {
    json += i ? ", {\"name\": " : "{\"name\": ";
    AppendJsonString(columns[i].first, &json);
    json += ", \"type\": ";
    AppendJsonString(columns[i].second, &json);
    json += "}";
  }
  json += "]";
  return {json, Sha256Hex(json).substr(0, 16)};
}

Result<std::optional<TableSchema>> ReadTableSchema(const SqlTarget& target) {
  if (target.table.empty()) return std::optional<TableSchema>();
  const std::string& context = target.display;
  ASSIGN_OR_RETURN(auto connection, ConnectSql(target, SqlAccess::kReadOnly));
  const SqlCondition query = CatalogueQuery(target);
  ASSIGN_OR_RETURN(auto statement, AdbcStatementHandle::Open(connection, query.sql, context));
  RETURN_IF_ERROR(BindCondition(query, *statement, context));
  ASSIGN_OR_RETURN(ArrowArrayStream stream, statement->Execute(context));
  auto reader = arrow::ImportRecordBatchReader(&stream);
  if (!reader.ok()) return Status::InputError(context + ": " + reader.status().message());
  std::vector<std::pair<std::string, std::string>> columns;
  while (true) {
    std::shared_ptr<arrow::RecordBatch> batch;
    if (auto read = (*reader)->ReadNext(&batch); !read.ok()) return Status::InputError(context + ": " + read.message());
    if (!batch) break;
    if (batch->num_columns() != 2) return Status::InputError(context + ": the catalogue query gave no (name, type)");
    for (int64_t row = 0; row < batch->num_rows(); ++row)
      columns.emplace_back(CellText(*batch->column(0), row), CellText(*batch->column(1), row));
  }
  if (columns.empty()) return std::optional<TableSchema>();
  return std::optional<TableSchema>(MakeTableSchema(columns));
}

}  // namespace griffin::sql
