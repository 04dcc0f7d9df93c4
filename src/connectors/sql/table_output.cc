#include "connectors/sql/table_output.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include <arrow/array.h>
#include <arrow/array/builder_binary.h>
#include <arrow/c/bridge.h>
#include <arrow/io/file.h>
#include <arrow/ipc/reader.h>
#include <arrow/record_batch.h>
#include <arrow/table.h>

#include "connectors/sql/sql_connect.h"
#include "connectors/sql/sql_uri.h"

namespace griffin::sql {
namespace {

void AppendJsonString(std::string_view text, std::string* out) {
  *out += '"';
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      *out += '\\';
      *out += c;
    } else if (byte < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", byte);
      *out += escaped;
    } else {
      *out += c;
    }
  }
  *out += '"';
}

// A list<struct<check, message>> column as JSON text per row.
arrow::Result<std::shared_ptr<arrow::Array>> ErrorsAsJson(const arrow::ListArray& errors) {
  const auto& items = static_cast<const arrow::StructArray&>(*errors.values());
  const auto& checks = static_cast<const arrow::StringArray&>(*items.field(0));
  const auto& messages = static_cast<const arrow::StringArray&>(*items.field(1));
  arrow::StringBuilder builder;
  for (int64_t row = 0; row < errors.length(); ++row) {
    if (errors.IsNull(row)) {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    std::string json = "[";
    for (int64_t item = errors.value_offset(row); item < errors.value_offset(row + 1); ++item) {
      json += item == errors.value_offset(row) ? "{\"check\":" : ",{\"check\":";
      AppendJsonString(checks.GetView(item), &json);
      json += ",\"message\":";
      AppendJsonString(messages.GetView(item), &json);
      json += "}";
    }
    ARROW_RETURN_NOT_OK(builder.Append(json + "]"));
  }
  return builder.Finish();
}

// The rows as the database takes them: nested columns as JSON text.
arrow::Result<std::shared_ptr<arrow::Table>> ForDatabase(const std::shared_ptr<arrow::Table>& table) {
  ARROW_ASSIGN_OR_RAISE(auto combined, table->CombineChunksToBatch());
  arrow::FieldVector fields;
  arrow::ArrayVector columns;
  for (int i = 0; i < combined->num_columns(); ++i) {
    std::shared_ptr<arrow::Array> column = combined->column(i);
    std::shared_ptr<arrow::Field> field = combined->schema()->field(i);
    if (column->type_id() == arrow::Type::LIST) {
      ARROW_ASSIGN_OR_RAISE(column, ErrorsAsJson(static_cast<const arrow::ListArray&>(*column)));
      field = field->WithType(arrow::utf8());
    }
    fields.push_back(field);
    columns.push_back(column);
  }
  return arrow::Table::Make(arrow::schema(fields), columns, combined->num_rows());
}

class SqlTableOutput : public OutputObject {
 public:
  SqlTableOutput(SqlTarget target, std::string spool_path, std::FILE* spool)
      : target_(std::move(target)), spool_path_(std::move(spool_path)), spool_(spool) {}
  ~SqlTableOutput() override { Abort(); }

  Status Write(std::string_view bytes) override {
    if (spool_ == nullptr) return Status::InputError(target_.display + ": write after commit or abort");
    if (std::fwrite(bytes.data(), 1, bytes.size(), spool_) != bytes.size())
      return Status::InputError(target_.display + ": cannot spool rows to " + spool_path_);
    return Status::OK();
  }

  Result<CommittedObject> Commit() override {
    if (spool_ == nullptr) return Status::InputError(target_.display + ": commit after abort");
    const bool flushed = std::fflush(spool_) == 0;
    std::fclose(spool_);
    spool_ = nullptr;
    if (!flushed) return Status::InputError(target_.display + ": cannot spool rows to " + spool_path_);
    Result<CommittedObject> committed = Ingest();
    std::filesystem::remove(spool_path_);
    return committed;
  }

  void Abort() override {
    if (spool_ != nullptr) std::fclose(spool_);
    spool_ = nullptr;
    std::error_code ignored;
    std::filesystem::remove(spool_path_, ignored);
  }

 private:
  Result<CommittedObject> Ingest() {
    const std::string& context = target_.display;
    auto table = ReadSpool();
    if (!table.ok()) return Status::InputError(context + ": " + table.status().ToString());
    ASSIGN_OR_RETURN(auto connection, ConnectSql(target_, SqlAccess::kWrite));
    RETURN_IF_ERROR(connection->SetOption("adbc.connection.autocommit", "false", context));
    ASSIGN_OR_RETURN(auto statement, AdbcStatementHandle::Open(connection, "", context));
    RETURN_IF_ERROR(statement->SetOption("adbc.ingest.target_table", target_.table, context));
    if (target_.schema) RETURN_IF_ERROR(statement->SetOption("adbc.ingest.target_db_schema", *target_.schema, context));
    RETURN_IF_ERROR(statement->SetOption("adbc.ingest.mode", "adbc.ingest.mode.create_append", context));
    ArrowArrayStream stream{};
    auto reader = std::make_shared<arrow::TableBatchReader>(*table);
    if (auto exported = arrow::ExportRecordBatchReader(reader, &stream); !exported.ok())
      return Status::InputError(context + ": " + exported.ToString());
    RETURN_IF_ERROR(statement->BindStream(&stream, context));
    RETURN_IF_ERROR(statement->ExecuteUpdate(context));
    RETURN_IF_ERROR(connection->Commit(context));  // all rows, or none
    CommittedObject committed;
    committed.size = (*table)->num_rows();
    return committed;
  }

  arrow::Result<std::shared_ptr<arrow::Table>> ReadSpool() {
    ARROW_ASSIGN_OR_RAISE(auto file, arrow::io::MemoryMappedFile::Open(spool_path_, arrow::io::FileMode::READ));
    ARROW_ASSIGN_OR_RAISE(auto reader, arrow::ipc::RecordBatchFileReader::Open(file));
    arrow::RecordBatchVector batches;
    for (int i = 0; i < reader->num_record_batches(); ++i) {
      ARROW_ASSIGN_OR_RAISE(auto batch, reader->ReadRecordBatch(i));
      batches.push_back(std::move(batch));
    }
    ARROW_ASSIGN_OR_RAISE(auto table, arrow::Table::FromRecordBatches(reader->schema(), batches));
    return ForDatabase(table);
  }

  SqlTarget target_;
  std::string spool_path_;
  std::FILE* spool_;
};

}  // namespace

Result<std::unique_ptr<OutputObject>> OpenSqlTableOutput(const std::string& uri) {
  ASSIGN_OR_RETURN(SqlTarget target, ParseSqlUri(uri));
  if (target.table.empty())
    return Status::UsageError(target.display + ": an output names its table: ?table=name");
  std::string spool_path = (std::filesystem::temp_directory_path() / "griffin_table_output_XXXXXX").string();
  const int fd = ::mkstemp(spool_path.data());
  if (fd < 0) return Status::InputError(target.display + ": cannot create a spool file in the temp folder");
  std::FILE* spool = ::fdopen(fd, "wb");
  if (spool == nullptr) {
    ::close(fd);
    return Status::InputError(target.display + ": cannot open the spool file " + spool_path);
  }
  return std::unique_ptr<OutputObject>(new SqlTableOutput(std::move(target), std::move(spool_path), spool));
}

}  // namespace griffin::sql
