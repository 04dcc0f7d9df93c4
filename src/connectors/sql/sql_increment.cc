#include "connectors/sql/sql_increment.h"

#include <arrow/c/bridge.h>
#include <arrow/io/memory.h>
#include <arrow/ipc/reader.h>
#include <arrow/ipc/writer.h>
#include <arrow/scalar.h>
#include <arrow/table.h>
#include <arrow/type_traits.h>

#include "connectors/sql/sql_dialect.h"
#include "connectors/sql/sql_uri.h"
#include "connectors/sql/where_sql.h"
#include "util/base64.h"

namespace griffin::sql {
namespace {

bool CanBeWatermark(const arrow::DataType& type) {
  return arrow::is_integer(type.id()) || arrow::is_floating(type.id()) || type.id() == arrow::Type::STRING ||
         type.id() == arrow::Type::LARGE_STRING || type.id() == arrow::Type::DATE32 ||
         type.id() == arrow::Type::DATE64 || type.id() == arrow::Type::TIMESTAMP;
}

// Parameters as one row: p1, p2, ... from one-value arrays.
}  // namespace

std::shared_ptr<arrow::RecordBatch> ParamRow(const arrow::ArrayVector& values) {
  if (values.empty()) return nullptr;
  arrow::FieldVector fields;
  for (size_t i = 0; i < values.size(); ++i) fields.push_back(arrow::field("p" + std::to_string(i + 1), values[i]->type()));
  return arrow::RecordBatch::Make(arrow::schema(std::move(fields)), 1, values);
}

std::string Placeholder(SqlEngine engine, int n) {
  return (engine == SqlEngine::kSqlite ? "?" : "$") + std::to_string(n);
}

Result<SourceWatermark> EncodeWatermark(const std::shared_ptr<arrow::Array>& one_value, const std::string& column) {
  if (!CanBeWatermark(*one_value->type()))
    return Status::UsageError("source.incremental: column '" + column + "' arrives as " +
                              one_value->type()->ToString() +
                              ", which cannot be a watermark (expected an integer, floating point, text, date or "
                              "timestamp column)");
  auto batch = arrow::RecordBatch::Make(arrow::schema({arrow::field("watermark", one_value->type())}), 1, {one_value});
  auto sink = arrow::io::BufferOutputStream::Create();
  if (!sink.ok()) return Status::InputError(sink.status().message());
  auto writer = arrow::ipc::MakeStreamWriter(*sink, batch->schema());
  if (!writer.ok()) return Status::InputError(writer.status().message());
  arrow::Status written = (*writer)->WriteRecordBatch(*batch);
  if (written.ok()) written = (*writer)->Close();
  auto buffer = written.ok() ? (*sink)->Finish() : arrow::Result<std::shared_ptr<arrow::Buffer>>(written);
  if (!buffer.ok()) return Status::InputError("watermark: " + buffer.status().message());
  auto scalar = one_value->GetScalar(0);
  return SourceWatermark{Base64Encode((*buffer)->ToString()), scalar.ok() ? (*scalar)->ToString() : "?"};
}

Result<std::shared_ptr<arrow::Array>> DecodeWatermark(const std::string& value, const std::string& context) {
  const std::optional<std::string> bytes = Base64Decode(value);
  const std::string corrupt = context + ": the stored watermark is not readable (source.incremental)";
  if (!bytes) return Status::InputError(corrupt);
  auto reader = arrow::ipc::RecordBatchStreamReader::Open(
      std::make_shared<arrow::io::BufferReader>(arrow::Buffer::FromString(*bytes)));
  if (!reader.ok()) return Status::InputError(corrupt + ": " + reader.status().message());
  std::shared_ptr<arrow::RecordBatch> batch;
  if (!(*reader)->ReadNext(&batch).ok() || !batch || batch->num_columns() != 1 || batch->num_rows() != 1 ||
      !CanBeWatermark(*batch->column(0)->type()))
    return Status::InputError(corrupt);
  return batch->column(0);
}

Result<SqlCondition> RowCondition(SqlEngine engine, const ReadOptions& options, const std::string& context) {
  SqlCondition condition;
  ASSIGN_OR_RETURN(WhereSql where, CompileWhere(options.where, *FindSqlDialect(SqlEngineName(engine)),
                                                BindingFor(engine)));
  condition.sql = where.sql;
  arrow::ArrayVector params = WhereArrays(where.params, engine);
  if (options.incremental_column.empty() || !options.increment_bounded) {
    if (!params.empty()) condition.params = ParamRow(params);
    return condition;
  }
  const std::string column = QuoteIdentifier(options.incremental_column);
  std::string bounds;
  if (!options.increment_after.empty()) {
    ASSIGN_OR_RETURN(auto after, DecodeWatermark(options.increment_after, context));
    params.push_back(after);
    bounds = column + " > " + Placeholder(engine, static_cast<int>(params.size()));
    if (options.increment_through.empty()) bounds += " AND 1 = 0";  // nothing is past it
  }
  if (!options.increment_through.empty()) {
    ASSIGN_OR_RETURN(auto through, DecodeWatermark(options.increment_through, context));
    params.push_back(through);
    const std::string at_most = column + " <= " + Placeholder(engine, static_cast<int>(params.size()));
    bounds = bounds.empty() ? "(" + at_most + " OR " + column + " IS NULL)" : bounds + " AND " + at_most;
  }
  if (bounds.empty()) bounds = column + " IS NULL";  // no value yet: only rows without one exist
  condition.sql = condition.sql.empty() ? bounds : condition.sql + " AND " + bounds;
  if (!params.empty()) condition.params = ParamRow(params);
  return condition;
}

Status BindCondition(const SqlCondition& condition, AdbcStatementHandle& statement, const std::string& context) {
  if (!condition.params) return Status::OK();
  auto reader = arrow::RecordBatchReader::Make({condition.params});
  if (!reader.ok()) return Status::InputError(context + ": " + reader.status().message());
  ArrowArrayStream stream;
  if (auto exported = arrow::ExportRecordBatchReader(*reader, &stream); !exported.ok())
    return Status::InputError(context + ": " + exported.message());
  return statement.BindStream(&stream, context);
}

Result<std::optional<SourceWatermark>> ReadWatermark(const std::shared_ptr<AdbcConnectionHandle>& connection,
                                                     SqlEngine engine, const std::string& from,
                                                     const ReadOptions& options, const std::string& context) {
  const std::string column = QuoteIdentifier(options.incremental_column);
  std::string sql = "SELECT MAX(" + column + ") AS griffin_watermark FROM " + from;
  ASSIGN_OR_RETURN(WhereSql where, CompileWhere(options.where, *FindSqlDialect(SqlEngineName(engine)),
                                                BindingFor(engine)));
  std::string condition = where.sql;
  arrow::ArrayVector values = WhereArrays(where.params, engine);
  if (!options.increment_after.empty()) {
    ASSIGN_OR_RETURN(auto after, DecodeWatermark(options.increment_after, context));
    values.push_back(after);
    condition += (condition.empty() ? "" : " AND ") + column + " > " +
                 Placeholder(engine, static_cast<int>(values.size()));
  }
  std::shared_ptr<arrow::RecordBatch> params = values.empty() ? nullptr : ParamRow(values);
  if (!condition.empty()) sql += " WHERE " + condition;
  ASSIGN_OR_RETURN(auto statement, AdbcStatementHandle::Open(connection, sql, context));
  RETURN_IF_ERROR(BindCondition({condition, params}, *statement, context));
  ASSIGN_OR_RETURN(ArrowArrayStream stream, statement->Execute(context));
  auto reader = arrow::ImportRecordBatchReader(&stream);
  if (!reader.ok()) return Status::InputError(context + ": " + reader.status().message());
  auto table = (*reader)->ToTable();
  if (!table.ok()) return Status::InputError(context + ": " + table.status().message());
  auto combined = (*table)->CombineChunks();
  if (!combined.ok() || (*combined)->num_rows() != 1 || (*combined)->num_columns() != 1)
    return Status::InputError(context + ": the watermark query gave no single value");
  const std::shared_ptr<arrow::Array> max = (*combined)->column(0)->chunk(0);
  if (max->IsNull(0)) return std::optional<SourceWatermark>();
  ASSIGN_OR_RETURN(SourceWatermark watermark, EncodeWatermark(max, options.incremental_column));
  return std::optional<SourceWatermark>(std::move(watermark));
}

}  // namespace griffin::sql
