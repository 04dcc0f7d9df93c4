#include "connectors/sql/stored_types.h"

#include <arrow/c/bridge.h>
#include <arrow/extension_type.h>
#include <arrow/util/key_value_metadata.h>

#include "connectors/sql/sql_query.h"
#include "connectors/sql/sql_uri.h"

namespace griffin::sql {
namespace {

// The PostgreSQL type name the driver records on a field ("POSTGRESQL:type"),
// or "" (other drivers).
std::string PostgresTypeName(const arrow::Field& field) {
  const auto& metadata = field.metadata();
  if (!metadata) return "";
  return metadata->Get("POSTGRESQL:type").ValueOr(metadata->Get("ADBC:postgresql:typname").ValueOr(""));
}

// SQLite: one pass counting each column's values that are not integers /
// reals / text (typeof), and its values.
Result<std::map<std::string, StoredType>> ProbeSqlite(const std::shared_ptr<AdbcConnectionHandle>& connection,
                                                      const Plan& plan, const std::vector<std::string>& present,
                                                      const std::string& from_where, const std::string& context,
                                                      const std::shared_ptr<arrow::RecordBatch>& params) {
  std::map<std::string, StoredType> stored;
  if (present.empty()) return stored;
  std::string select;
  for (const std::string& name : present) {
    const std::string c = "typeof(" + QuoteIdentifier(name) + ")";
    for (const char* kind : {"integer", "real", "text"})
      select += std::string(select.empty() ? "" : ", ") + "COUNT(CASE WHEN " + c + " NOT IN ('" + kind +
                "', 'null') THEN 1 END)";
    select += ", COUNT(" + QuoteIdentifier(name) + ")";
  }
  ASSIGN_OR_RETURN(auto batches, QueryAll(connection, "SELECT " + select + " FROM " + from_where, context, params));
  if (batches.empty() || batches[0]->num_rows() != 1) return Status::InputError(context + ": the type probe gave no row");
  const arrow::RecordBatch& row = *batches[0];
  for (size_t i = 0; i < present.size(); ++i) {
    int64_t counts[4];
    for (int k = 0; k < 4; ++k) {
      ASSIGN_OR_RETURN(auto value, IntegerCell(*row.column(static_cast<int>(i * 4 + k)), 0, context));
      counts[k] = value ? static_cast<int64_t>(*value) : 0;
    }
    const int slot = plan.FindColumn(present[i]);
    StoredType type = StoredType::kOther;
    if (counts[3] == 0) type = NativeStorage(plan.columns()[slot].type);  // only NULLs: any type holds them
    else if (counts[0] == 0) type = StoredType::kInteger;
    else if (counts[1] == 0) type = StoredType::kDouble;
    else if (counts[2] == 0) type = StoredType::kText;
    stored[present[i]] = type;
  }
  return stored;
}

}  // namespace

StoredType StoredTypeOfField(const arrow::Field& field) {
  const std::string pg_type = PostgresTypeName(field);
  switch (field.type()->id()) {
    case arrow::Type::STRING: case arrow::Type::LARGE_STRING: case arrow::Type::STRING_VIEW:
      // PostgreSQL: text and varchar only. char(n) arrives padded, which
      // PostgreSQL's comparisons and lengths ignore; enums and the like
      // have their own comparisons and no CHAR_LENGTH.
      return pg_type.empty() || pg_type == "text" || pg_type == "varchar" ? StoredType::kText : StoredType::kOther;
    case arrow::Type::INT8: case arrow::Type::INT16: case arrow::Type::INT32: case arrow::Type::INT64:
    case arrow::Type::UINT8: case arrow::Type::UINT16: case arrow::Type::UINT32:
      return StoredType::kInteger;
    case arrow::Type::DOUBLE: return StoredType::kDouble;
    case arrow::Type::BOOL: return StoredType::kBool;
    case arrow::Type::DATE32: return StoredType::kDate;
    case arrow::Type::TIMESTAMP: return StoredType::kTimestamp;
    // Decimals, NUMERIC, uuid, json (extension types over text or bytes)
    // reach the engine as text that SQL would judge by their own type's
    // rules: the engine judges them.
    default: return StoredType::kOther;
  }
}

Result<std::map<std::string, StoredType>> ProbeStoredTypes(const std::shared_ptr<AdbcConnectionHandle>& connection,
                                                           SqlEngine engine, const Plan& plan,
                                                           const std::string& from, const std::string& where,
                                                           const std::string& context,
                                                           std::shared_ptr<arrow::RecordBatch> params) {
  // The columns and their types: the stream's schema, without rows.
  ASSIGN_OR_RETURN(auto statement, AdbcStatementHandle::Open(connection, "SELECT * FROM " + from + " WHERE 1=0", context));
  ASSIGN_OR_RETURN(ArrowArrayStream stream, statement->Execute(context));
  auto reader = arrow::ImportRecordBatchReader(&stream);
  if (!reader.ok()) return Status::InputError(context + ": " + reader.status().message());
  const std::shared_ptr<arrow::Schema> schema = (*reader)->schema();
  std::vector<std::string> present;
  std::map<std::string, StoredType> stored;
  for (const auto& field : schema->fields()) {
    if (plan.FindColumn(field->name()) < 0 || stored.count(field->name())) continue;
    present.push_back(field->name());
    stored[field->name()] = StoredTypeOfField(*field);
  }
  if (engine != SqlEngine::kSqlite) return stored;
  reader->reset();
  return ProbeSqlite(connection, plan, present, from + (where.empty() ? "" : " WHERE (" + where + ")"), context,
                     params);
}

}  // namespace griffin::sql
