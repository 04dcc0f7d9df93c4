#include "connectors/sql/table_output.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
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
#include "io/spooled_output.h"
#include "util/dead_process_files.h"
#include "util/random_hex.h"

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

class SqlTableOutput : public SpooledOutput {
 public:
  explicit SqlTableOutput(SqlTarget target) : SpooledOutput(target.display), target_(std::move(target)) {}
  Status Open(const std::string& temp_dir) { return SpooledOutput::Open("table_output", temp_dir); }

 private:
  Result<CommittedObject> Publish(const std::string& spool_path) override {
    // Only a file known to be absent is built aside; a path that cannot even be
    // looked at (a symlink loop, no permission) goes to DuckDB, whose error names it.
    std::error_code error;
    if (target_.engine == SqlEngine::kDuckdb && !target_.file.empty() && target_.file != ":memory:" &&
        std::filesystem::status(target_.file, error).type() == std::filesystem::file_type::not_found)
      return IngestIntoANewDuckdbFile(spool_path);
    return Ingest(spool_path, target_);
  }

  // DuckDB writes a new database file's header only after creating it, so a
  // run killed in between would leave a file DuckDB refuses to open. A file
  // that does not exist yet is therefore built under a hidden name beside it
  // (".NAME.griffin-PID-XXXXXXXX"), committed and closed (DuckDB checkpoints on
  // close), then renamed into place without replacing a file that appeared
  // meanwhile (then the rows go into that one). A kill leaves no file, or the
  // whole one; the hidden file of a killed run stays behind until the next run
  // into the same file removes it (its pid names a dead process).
  Result<CommittedObject> IngestIntoANewDuckdbFile(const std::string& spool_path) {
    const std::filesystem::path final_path(target_.file);
    const std::string hidden_prefix = "." + final_path.filename().string() + ".griffin-";
    const std::filesystem::path folder = final_path.has_parent_path() ? final_path.parent_path() : ".";
    RemoveDeadProcessFiles(folder.string(), hidden_prefix);
    SqlTarget hidden = target_;
    hidden.file = (folder / (PidTaggedPrefix(hidden_prefix) + RandomHex(8))).string();
    auto remove_hidden = [&hidden] {
      std::remove(hidden.file.c_str());
      std::remove((hidden.file + ".wal").c_str());
    };
    Result<CommittedObject> committed = Ingest(spool_path, hidden);  // the connection is closed on return
    if (!committed.ok()) {
      remove_hidden();
      return committed;
    }
    std::error_code error;
    if (std::filesystem::exists(hidden.file + ".wal", error) || error) {
      remove_hidden();
      return Status::InputError(target_.display + ": the new database's write-ahead log remained after closing (or could "
                                                   "not be checked); nothing was written");
    }
    if (renameat2(AT_FDCWD, hidden.file.c_str(), AT_FDCWD, target_.file.c_str(), RENAME_NOREPLACE) != 0) {
      const int error = errno;
      remove_hidden();
      if (error == EEXIST) return Ingest(spool_path, target_);
      return Status::InputError(target_.display + ": cannot move the new database into place: " + std::strerror(error));
    }
    const std::string directory = final_path.has_parent_path() ? final_path.parent_path().string() : ".";
    if (int fd = open(directory.c_str(), O_RDONLY | O_DIRECTORY); fd >= 0) {  // the rename, durable
      fsync(fd);
      close(fd);
    }
    return committed;
  }

  Result<CommittedObject> Ingest(const std::string& spool_path, const SqlTarget& target) {
    const std::string& context = target_.display;
    auto table = ReadSpool(spool_path);
    if (!table.ok()) return Status::InputError(context + ": " + table.status().ToString());
    ASSIGN_OR_RETURN(auto connection, ConnectSql(target, SqlAccess::kWrite));
    RETURN_IF_ERROR(connection->SetOption("adbc.connection.autocommit", "false", context));
    ASSIGN_OR_RETURN(auto statement, AdbcStatementHandle::Open(connection, "", context));
    RETURN_IF_ERROR(statement->SetOption("adbc.ingest.target_table", target.table, context));
    if (target.schema) RETURN_IF_ERROR(statement->SetOption("adbc.ingest.target_db_schema", *target.schema, context));
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

  arrow::Result<std::shared_ptr<arrow::Table>> ReadSpool(const std::string& spool_path) {
    ARROW_ASSIGN_OR_RAISE(auto file, arrow::io::MemoryMappedFile::Open(spool_path, arrow::io::FileMode::READ));
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
};

}  // namespace

Result<std::unique_ptr<OutputObject>> OpenSqlTableOutput(const std::string& uri, const OutputObjectOptions& options) {
  ASSIGN_OR_RETURN(SqlTarget target, ParseSqlUri(uri));
  if (target.table.empty())
    return Status::UsageError(target.display + ": an output names its table: ?table=name");
  auto output = std::make_unique<SqlTableOutput>(std::move(target));
  RETURN_IF_ERROR(output->Open(options.temp_dir));
  return std::unique_ptr<OutputObject>(std::move(output));
}

}  // namespace griffin::sql
