#include "connectors/sql/sql_source.h"

#include <algorithm>

#include <arrow/c/bridge.h>
#include <arrow/array/builder_binary.h>
#include <arrow/extension_type.h>
#include <arrow/util/decimal.h>
#include <arrow/util/key_value_metadata.h>
#include <arrow/record_batch.h>

#include "connectors/sql/adbc_driver.h"
#include "connectors/sql/parallel_scan.h"
#include "connectors/sql/sql_catalogue.h"
#include "connectors/sql/sql_connect.h"
#include "connectors/sql/sql_increment.h"
#include "connectors/sql/sql_uri.h"
#include "connectors/sql/where_sql.h"
#include "io/arrow_source.h"

namespace griffin::sql {
namespace {

// The PostgreSQL driver's batch size (adbc.postgresql.batch_size_hint_bytes;
// its default is 16 MiB). It grows each column's buffers by doubling up to
// the batch's size and frees them after every batch, so large batches cost
// fresh pages each time: at 1M rows of bench/suite.rules.yaml 1 MiB took
// griffin's peak RSS from 217 to 139 MiB, its page faults from ~70k to ~37k
// and its CPU from 0.97 to 0.92 s (bench/README.md, "The PostgreSQL driver's
// batch size"). The engine still slices the batches to ReadOptions::batch_rows.
constexpr int64_t kPostgresqlBatchBytes = 1 << 20;

bool IsDecimal(const arrow::DataType& type) {
  return type.id() == arrow::Type::DECIMAL128 || type.id() == arrow::Type::DECIMAL256;
}

// The type a column reaches the engine as: an extension type as its storage
// (the PostgreSQL driver gives NUMERIC, and types it does not map, as
// arrow.opaque over their text), a decimal as text (DuckDB's DECIMAL): exact
// decimals are text, which float64/int64 rules parse as they parse a CSV field.
std::shared_ptr<arrow::DataType> EngineType(const std::shared_ptr<arrow::DataType>& type) {
  if (type->id() == arrow::Type::EXTENSION)
    return EngineType(static_cast<const arrow::ExtensionType&>(*type).storage_type());
  if (IsDecimal(*type)) return arrow::utf8();
  return type;
}

// A UUID column (PostgreSQL's uuid: Arrow's arrow.uuid extension over 16
// bytes, registered or as field metadata) reaches the engine as its
// canonical text, a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11, as a CSV would hold it.
bool IsUuidField(const arrow::Field& field) {
  if (field.type()->id() == arrow::Type::EXTENSION)
    return static_cast<const arrow::ExtensionType&>(*field.type()).extension_name() == "arrow.uuid";
  const auto& metadata = field.metadata();
  return field.type()->id() == arrow::Type::FIXED_SIZE_BINARY && metadata &&
         metadata->Contains("ARROW:extension:name") &&
         metadata->Get("ARROW:extension:name").ValueOr("") == "arrow.uuid";
}

arrow::Result<std::shared_ptr<arrow::Array>> UuidText(const std::shared_ptr<arrow::Array>& column) {
  std::shared_ptr<arrow::Array> storage = column->type_id() == arrow::Type::EXTENSION
                                              ? static_cast<const arrow::ExtensionArray&>(*column).storage()
                                              : column;
  const auto& bytes = static_cast<const arrow::FixedSizeBinaryArray&>(*storage);
  if (bytes.byte_width() != 16) return arrow::Status::Invalid("a uuid column is not 16 bytes wide");
  arrow::StringBuilder builder;
  ARROW_RETURN_NOT_OK(builder.Reserve(bytes.length()));
  static constexpr char kHex[] = "0123456789abcdef";
  for (int64_t row = 0; row < bytes.length(); ++row) {
    if (bytes.IsNull(row)) {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    const uint8_t* value = bytes.GetValue(row);
    std::string text;
    for (int i = 0; i < 16; ++i) {
      if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
      text += kHex[value[i] >> 4];
      text += kHex[value[i] & 15];
    }
    ARROW_RETURN_NOT_OK(builder.Append(text));
  }
  return builder.Finish();
}

// SQLite has no column types: its driver types a column from the values of
// the first batch, and one without any (no rows, or only NULLs) comes as
// int64. Such a column is Arrow's null type here, which every rule type
// accepts, as a file's all-null column would be. (The reader's schema is
// only what an empty result shows.)
bool IsUntypedSqliteColumn(const arrow::Array& array) {
  return array.type_id() == arrow::Type::INT64 && array.null_count() == array.length();
}

std::shared_ptr<arrow::Schema> WithEngineTypes(const std::shared_ptr<arrow::Schema>& schema, bool sqlite) {
  arrow::FieldVector fields;
  for (const auto& field : schema->fields()) {
    const bool untyped = sqlite && field->type()->id() == arrow::Type::INT64;
    fields.push_back(field->WithType(untyped            ? arrow::null()
                                     : IsUuidField(*field) ? arrow::utf8()
                                                           : EngineType(field->type())));
  }
  return arrow::schema(std::move(fields), schema->metadata());
}

// Decimal values as their exact text ("-3.00"); nulls stay null.
arrow::Result<std::shared_ptr<arrow::Array>> DecimalText(const arrow::Array& array) {
  const auto& decimal = static_cast<const arrow::DecimalType&>(*array.type());
  arrow::StringBuilder builder;
  ARROW_RETURN_NOT_OK(builder.Reserve(array.length()));
  for (int64_t row = 0; row < array.length(); ++row) {
    if (array.IsNull(row)) {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
    } else if (array.type_id() == arrow::Type::DECIMAL128) {
      ARROW_RETURN_NOT_OK(builder.Append(
          arrow::Decimal128(static_cast<const arrow::Decimal128Array&>(array).GetValue(row)).ToString(decimal.scale())));
    } else {
      ARROW_RETURN_NOT_OK(builder.Append(
          arrow::Decimal256(static_cast<const arrow::Decimal256Array&>(array).GetValue(row)).ToString(decimal.scale())));
    }
  }
  return builder.Finish();
}

arrow::Result<std::shared_ptr<arrow::Array>> EngineArray(std::shared_ptr<arrow::Array> array) {
  if (array->type_id() == arrow::Type::EXTENSION)
    return EngineArray(static_cast<const arrow::ExtensionArray&>(*array).storage());
  if (IsDecimal(*array->type())) return DecimalText(*array);
  return array;
}

// The driver's result stream as a RecordBatchReader that keeps the
// connection and statement alive until the stream is released, and gives
// columns in their EngineType.
class AdbcResultReader : public arrow::RecordBatchReader {
 public:
  AdbcResultReader(std::shared_ptr<AdbcConnectionHandle> connection, std::unique_ptr<AdbcStatementHandle> statement,
                   std::shared_ptr<arrow::RecordBatchReader> stream, bool sqlite)
      : connection_(std::move(connection)),
        statement_(std::move(statement)),
        stream_(std::move(stream)),
        sqlite_(sqlite),
        schema_(WithEngineTypes(stream_->schema(), sqlite)) {}
  std::shared_ptr<arrow::Schema> schema() const override { return schema_; }
  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    ARROW_RETURN_NOT_OK(stream_->ReadNext(batch));
    if (*batch == nullptr) return arrow::Status::OK();
    arrow::ArrayVector columns = (*batch)->columns();
    arrow::FieldVector fields;
    for (size_t i = 0; i < columns.size(); ++i) {
      std::shared_ptr<arrow::Array>& column = columns[i];
      if (sqlite_ && IsUntypedSqliteColumn(*column)) column = std::make_shared<arrow::NullArray>(column->length());
      if (IsUuidField(*(*batch)->schema()->field(static_cast<int>(i)))) {
        ARROW_ASSIGN_OR_RAISE(column, UuidText(column));
      }
      ARROW_ASSIGN_OR_RAISE(column, EngineArray(std::move(column)));
      fields.push_back(arrow::field(schema_->field(static_cast<int>(fields.size()))->name(), column->type()));
    }
    *batch = arrow::RecordBatch::Make(arrow::schema(std::move(fields)), (*batch)->num_rows(), std::move(columns));
    return arrow::Status::OK();
  }

 private:
  // Destroyed in reverse order: the stream first, then the statement, then the connection.
  std::shared_ptr<AdbcConnectionHandle> connection_;
  std::unique_ptr<AdbcStatementHandle> statement_;
  std::shared_ptr<arrow::RecordBatchReader> stream_;
  bool sqlite_;
  std::shared_ptr<arrow::Schema> schema_;  // the engine types (an empty result's columns)
};

Result<ArrowArrayStream> Run(const std::shared_ptr<AdbcConnectionHandle>& connection, const std::string& sql,
                             const std::string& context, std::unique_ptr<AdbcStatementHandle>* statement) {
  ASSIGN_OR_RETURN(*statement, AdbcStatementHandle::Open(connection, sql, context));
  return (*statement)->Execute(context);
}

}  // namespace

Result<std::vector<std::string>> SourceColumnNames(const std::shared_ptr<AdbcConnectionHandle>& connection,
                                             const std::string& from, const std::string& context) {
  std::unique_ptr<AdbcStatementHandle> statement;
  ASSIGN_OR_RETURN(ArrowArrayStream stream, Run(connection, "SELECT * FROM " + from + " WHERE 1=0", context, &statement));
  auto reader = arrow::ImportRecordBatchReader(&stream);
  if (!reader.ok()) return Status::InputError(context + ": " + reader.status().message());
  std::vector<std::string> names;
  for (const auto& field : (*reader)->schema()->fields()) names.push_back(field->name());
  return names;
}

namespace {

// The select list: the wanted columns the source has, in its order; "*" when
// every column is wanted or none of the wanted ones is there.
std::string SelectList(const std::vector<std::string>& columns, const ReadOptions& options) {
  if (!options.project_columns || options.json_columns.empty()) return "*";
  std::string list;
  for (const std::string& column : columns) {
    if (std::find(options.json_columns.begin(), options.json_columns.end(), column) == options.json_columns.end())
      continue;
    list += (list.empty() ? "" : ", ") + QuoteIdentifier(column);
  }
  return list.empty() ? "*" : list;
}

// What a URI and the options read: the target, and the FROM of every query
// (a quoted table name, or the query as a subquery).
struct SqlRead {
  SqlTarget target;
  std::string from;
};

Result<SqlRead> ResolveRead(const std::string& uri, const ReadOptions& options) {
  ASSIGN_OR_RETURN(SqlTarget target, ParseSqlUri(uri));
  if (target.table.empty() == options.query.empty())
    return Status::UsageError(target.display +
                              ": name what to read with table= in the URI or with --query, one of them");
  std::string from = options.query.empty() ? QuotedTableName(target) : "(" + options.query + ") AS griffin_query";
  return SqlRead{std::move(target), std::move(from)};
}

}  // namespace

Result<SourceIdentity> DescribeSqlTable(const std::string& uri) {
  ASSIGN_OR_RETURN(SqlTarget target, ParseSqlUri(uri));
  SourceIdentity identity;
  ASSIGN_OR_RETURN(std::optional<TableSchema> schema, ReadTableSchema(target));
  if (schema) {
    identity.etag = "schema:" + schema->version;
    identity.schema_json = std::move(schema->json);
  }
  return identity;
}

Result<std::optional<SourceWatermark>> ReadSqlWatermark(const std::string& uri, const ReadOptions& options) {
  ASSIGN_OR_RETURN(SqlRead read, ResolveRead(uri, options));
  ASSIGN_OR_RETURN(std::shared_ptr<AdbcConnectionHandle> connection, ConnectSql(read.target, SqlAccess::kReadOnly));
  return ReadWatermark(connection, read.target.engine, read.from, options, read.target.display);
}

Result<std::unique_ptr<InputSource>> OpenSqlSource(const std::string& uri, const ReadOptions& options,
                                                   int input_index) {
  ASSIGN_OR_RETURN(SqlRead read, ResolveRead(uri, options));
  const SqlTarget& target = read.target;
  const std::string& context = target.display;
  const std::string& from = read.from;
  ASSIGN_OR_RETURN(std::shared_ptr<AdbcConnectionHandle> connection, ConnectSql(target, SqlAccess::kReadOnly));
  ASSIGN_OR_RETURN(std::vector<std::string> columns, SourceColumnNames(connection, from, context));
  RETURN_IF_ERROR(CheckWhereColumns(options.where, columns, target.engine, context));
  ASSIGN_OR_RETURN(SqlCondition condition, RowCondition(target.engine, options, context));
  const TableScan scan{SelectList(columns, options), from, condition};
  if (options.query.empty()) return OpenSqlTableScan(std::move(connection), target, scan, options, input_index, false);
  return OpenSqlQuerySource(std::move(connection), target.engine, scan.Sql(), context, options, input_index,
                            condition.params);
}

Result<std::shared_ptr<arrow::RecordBatchReader>> OpenSqlQueryReader(std::shared_ptr<AdbcConnectionHandle> connection,
                                                                     SqlEngine engine, const std::string& sql,
                                                                     const std::string& context,
                                                                     const ReadOptions& options,
                                                                     const std::shared_ptr<arrow::RecordBatch>& params) {
  ASSIGN_OR_RETURN(auto statement, AdbcStatementHandle::Open(connection, sql, context));
  RETURN_IF_ERROR(BindCondition({"", params}, *statement, context));
  if (engine == SqlEngine::kSqlite)
    RETURN_IF_ERROR(statement->SetOption("adbc.sqlite.query.batch_rows", std::to_string(options.batch_rows), context));
  if (engine == SqlEngine::kPostgresql)
    RETURN_IF_ERROR(statement->SetOption("adbc.postgresql.batch_size_hint_bytes",
                                         std::to_string(kPostgresqlBatchBytes), context));
  ASSIGN_OR_RETURN(ArrowArrayStream stream, statement->Execute(context));
  auto imported = arrow::ImportRecordBatchReader(&stream);
  if (!imported.ok()) return Status::InputError(context + ": " + imported.status().message());
  std::shared_ptr<arrow::RecordBatchReader> reader = std::make_shared<AdbcResultReader>(
      std::move(connection), std::move(statement), std::move(*imported), engine == SqlEngine::kSqlite);
  return reader;
}

Result<std::unique_ptr<InputSource>> OpenSqlQuerySource(std::shared_ptr<AdbcConnectionHandle> connection,
                                                        SqlEngine engine, const std::string& sql,
                                                        const std::string& context, const ReadOptions& options,
                                                        int input_index, std::shared_ptr<arrow::RecordBatch> params) {
  ASSIGN_OR_RETURN(auto reader, OpenSqlQueryReader(std::move(connection), engine, sql, context, options, params));
  return OpenRecordBatchReaderSource(std::move(reader), context, options, input_index);
}

Result<std::unique_ptr<InputSource>> OpenSqlTableScan(std::shared_ptr<AdbcConnectionHandle> connection,
                                                      const SqlTarget& target, const TableScan& scan,
                                                      const ReadOptions& options, int input_index,
                                                      bool in_repeatable_read) {
  const std::string& context = target.display;
  const RangeScanShape shape = DefaultRangeScanShape();
  if (target.engine == SqlEngine::kPostgresql && shape.readers > 1) {
    if (!in_repeatable_read) RETURN_IF_ERROR(BeginRepeatableRead(connection, context));
    ASSIGN_OR_RETURN(auto ranges, OpenPostgresqlRangeScan(connection, target, scan, options, shape));
    if (ranges != nullptr) return OpenRecordBatchReaderSource(std::move(ranges), context, options, input_index);
  }
  return OpenSqlQuerySource(std::move(connection), target.engine, scan.Sql(), context, options, input_index,
                            scan.condition.params);
}

}  // namespace griffin::sql
