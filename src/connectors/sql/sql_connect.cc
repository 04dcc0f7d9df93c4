#include "connectors/sql/sql_connect.h"

#include "connectors/sql/sql_query.h"

#include <sys/stat.h>

#include <map>

namespace griffin::sql {
namespace {

// A SQLite URI filename: '?', '#' and '%' in the path are escaped.
std::string SqliteUriFile(const std::string& file) {
  std::string escaped;
  for (char c : file) {
    if (c == '?') escaped += "%3f";
    else if (c == '#') escaped += "%23";
    else if (c == '%') escaped += "%25";
    else escaped += c;
  }
  return "file:" + escaped;
}

Result<std::map<std::string, std::string>> DatabaseOptions(const SqlTarget& target, SqlAccess access) {
  const bool read_only = access == SqlAccess::kReadOnly;
  if (target.engine == SqlEngine::kPostgresql) return std::map<std::string, std::string>{{"uri", target.connection_uri}};
  struct stat info;  // validation never makes a new empty database
  if (read_only && ::stat(target.file.c_str(), &info) != 0)
    return Status::InputError(target.display + ": no such database file " + target.file);
  if (target.engine == SqlEngine::kSqlite)
    return std::map<std::string, std::string>{{"uri", SqliteUriFile(target.file) + (read_only ? "?mode=ro" : "")}};
  std::map<std::string, std::string> options{{"path", target.file}};
  if (read_only) options["access_mode"] = "READ_ONLY";
  return options;
}

}  // namespace

Result<std::shared_ptr<AdbcConnectionHandle>> ConnectSql(const SqlTarget& target, SqlAccess access) {
  const std::string& context = target.display;
  ASSIGN_OR_RETURN(auto database_options, DatabaseOptions(target, access));
  ASSIGN_OR_RETURN(auto library, AdbcDriverLibrary::Load(target.engine));
  ASSIGN_OR_RETURN(std::shared_ptr<AdbcDatabaseHandle> database,
                   AdbcDatabaseHandle::Open(library, database_options, context));
  ASSIGN_OR_RETURN(std::shared_ptr<AdbcConnectionHandle> connection, AdbcConnectionHandle::Open(database, context));
  if (target.engine == SqlEngine::kPostgresql && access == SqlAccess::kReadOnly) {
    // Read-only, and every sequential scan starts at the table's first block:
    // with synchronized scans a big table's scan starts where a concurrent one
    // is, so a plain SELECT's row order (the report's rows) would change from
    // run to run and differ from the ranged read's ctid order (parallel_scan.h).
    for (const char* sql : {"SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY", "SET synchronize_seqscans = off"})
      RETURN_IF_ERROR(ExecuteSql(connection, sql, context));
  }
  return connection;
}

}  // namespace griffin::sql
