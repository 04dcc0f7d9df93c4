// What a database URI names: the engine, how to connect, and the table.
//
//   sqlite:///abs/file.db?table=orders      sqlite://rel/file.db?table=orders
//   duckdb:///abs/file.duckdb?table=main.orders
//   postgresql://user[:password]@host:port/db?table=schema.orders[&sslmode=...]
//   (postgres:// is the same)
//
// `table` may be `name` or `schema.name` (split at the first dot); percent-
// escapes in values are decoded. Without `table`, ReadOptions::query must
// name what to read. For PostgreSQL every other parameter goes to libpq as
// is (sslmode, connect_timeout, ...); the password comes from the URI,
// PGPASSWORD or ~/.pgpass (libpq's own lookup). SQLite and DuckDB take no
// other parameter: an unknown one is a UsageError.
#pragma once

#include <optional>
#include <string>

#include "connectors/sql/adbc_driver.h"
#include "util/status.h"

namespace griffin::sql {

struct SqlTarget {
  SqlEngine engine = SqlEngine::kSqlite;
  std::string file;            // SQLite, DuckDB: the database file
  std::string connection_uri;  // PostgreSQL: the URI libpq gets (without `table`)
  std::optional<std::string> schema;  // the table's schema, when given
  std::string table;           // empty: none given
  std::string display;         // the URI for messages (password as ***)
};

// The engine a scheme names ("sqlite", "duckdb", "postgresql", "postgres").
std::optional<SqlEngine> SqlEngineForScheme(const std::string& scheme);

Result<SqlTarget> ParseSqlUri(const std::string& uri);

// `name` as a SQL identifier: in double quotes, a quote doubled (PostgreSQL,
// SQLite and DuckDB alike), so any text names one object and is never SQL.
std::string QuoteIdentifier(const std::string& name);
// The target's table, quoted ("schema"."table" or "table").
std::string QuotedTableName(const SqlTarget& target);

}  // namespace griffin::sql
