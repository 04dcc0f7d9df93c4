#include "connectors/sql/sql_connect.h"

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
    ASSIGN_OR_RETURN(auto read_only, AdbcStatementHandle::Open(
                                         connection, "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY", context));
    RETURN_IF_ERROR(read_only->ExecuteUpdate(context));
  }
  return connection;
}

}  // namespace griffin::sql
