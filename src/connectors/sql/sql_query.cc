#include "connectors/sql/sql_query.h"

#include <arrow/c/bridge.h>
#include <arrow/extension_type.h>

#include "connectors/sql/sql_increment.h"

namespace griffin::sql {
namespace {

const arrow::Array& Storage(const arrow::Array& column) {
  if (column.type_id() == arrow::Type::EXTENSION) return *static_cast<const arrow::ExtensionArray&>(column).storage();
  return column;
}

// "-123" as an integer; nullopt when it is not one or does not fit 127 bits.
std::optional<__int128> ParseInteger(std::string_view text) {
  bool negative = !text.empty() && text[0] == '-';
  if (negative || (!text.empty() && text[0] == '+')) text.remove_prefix(1);
  if (text.empty() || text.size() > 38) return std::nullopt;
  __int128 value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return negative ? -value : value;
}

template <typename ArrayType>
__int128 ValueOf(const arrow::Array& column, int64_t row) {
  return static_cast<__int128>(static_cast<const ArrayType&>(column).Value(row));
}

}  // namespace

Status ExecuteSql(const std::shared_ptr<AdbcConnectionHandle>& connection, const std::string& sql,
                  const std::string& context) {
  ASSIGN_OR_RETURN(auto statement, AdbcStatementHandle::Open(connection, sql, context));
  return statement->ExecuteUpdate(context);
}

Result<std::vector<std::shared_ptr<arrow::RecordBatch>>> QueryAll(
    const std::shared_ptr<AdbcConnectionHandle>& connection, const std::string& sql, const std::string& context,
    const std::shared_ptr<arrow::RecordBatch>& params) {
  ASSIGN_OR_RETURN(auto statement, AdbcStatementHandle::Open(connection, sql, context));
  RETURN_IF_ERROR(BindCondition({"", params}, *statement, context));
  ASSIGN_OR_RETURN(ArrowArrayStream stream, statement->Execute(context));
  auto reader = arrow::ImportRecordBatchReader(&stream);
  if (!reader.ok()) return Status::InputError(context + ": " + reader.status().message());
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
  while (true) {
    std::shared_ptr<arrow::RecordBatch> batch;
    const arrow::Status read = (*reader)->ReadNext(&batch);
    if (!read.ok()) return Status::InputError(context + ": " + read.message());
    if (!batch) break;
    batches.push_back(std::move(batch));
  }
  return batches;
}

Result<std::optional<__int128>> IntegerCell(const arrow::Array& array, int64_t row, const std::string& context) {
  const arrow::Array& column = Storage(array);
  if (column.IsNull(row)) return std::optional<__int128>();
  switch (column.type_id()) {
    case arrow::Type::INT8: return std::optional<__int128>(ValueOf<arrow::Int8Array>(column, row));
    case arrow::Type::INT16: return std::optional<__int128>(ValueOf<arrow::Int16Array>(column, row));
    case arrow::Type::INT32: return std::optional<__int128>(ValueOf<arrow::Int32Array>(column, row));
    case arrow::Type::INT64: return std::optional<__int128>(ValueOf<arrow::Int64Array>(column, row));
    case arrow::Type::UINT8: return std::optional<__int128>(ValueOf<arrow::UInt8Array>(column, row));
    case arrow::Type::UINT16: return std::optional<__int128>(ValueOf<arrow::UInt16Array>(column, row));
    case arrow::Type::UINT32: return std::optional<__int128>(ValueOf<arrow::UInt32Array>(column, row));
    case arrow::Type::UINT64: return std::optional<__int128>(ValueOf<arrow::UInt64Array>(column, row));
    case arrow::Type::DATE32: return std::optional<__int128>(ValueOf<arrow::Date32Array>(column, row));
    case arrow::Type::STRING: case arrow::Type::LARGE_STRING: {
      const std::string text = column.type_id() == arrow::Type::STRING
                                   ? static_cast<const arrow::StringArray&>(column).GetString(row)
                                   : static_cast<const arrow::LargeStringArray&>(column).GetString(row);
      if (auto value = ParseInteger(text)) return std::optional<__int128>(*value);
      return Status::InputError(context + ": expected an integer, got '" + text + "'");
    }
    default: return Status::InputError(context + ": expected an integer, got " + column.type()->ToString());
  }
}

Result<std::optional<double>> DoubleCell(const arrow::Array& array, int64_t row, const std::string& context) {
  const arrow::Array& column = Storage(array);
  if (column.IsNull(row)) return std::optional<double>();
  if (column.type_id() == arrow::Type::DOUBLE)
    return std::optional<double>(static_cast<const arrow::DoubleArray&>(column).Value(row));
  if (column.type_id() == arrow::Type::FLOAT)
    return std::optional<double>(static_cast<const arrow::FloatArray&>(column).Value(row));
  return Status::InputError(context + ": expected a double, got " + column.type()->ToString());
}

}  // namespace griffin::sql
