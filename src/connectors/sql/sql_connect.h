// A connection to the database a SqlTarget names, read-only for validation
// or writable for outputs (dead letters to a table).
//
// Read-only: SQLite opens the file mode=ro (a missing file is an InputError,
// never a new database), DuckDB with access_mode=READ_ONLY, PostgreSQL with
// SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY. Writable: SQLite and
// DuckDB create the file when missing.
#pragma once

#include <memory>

#include "connectors/sql/adbc_driver.h"
#include "connectors/sql/sql_uri.h"

namespace griffin::sql {

enum class SqlAccess { kReadOnly, kWrite };

Result<std::shared_ptr<AdbcConnectionHandle>> ConnectSql(const SqlTarget& target, SqlAccess access);

}  // namespace griffin::sql
