// SqlConnection: the small slice of a SQL database the run store needs, so
// that the store's logic (sql_run_store.cc) and its migrations are written once
// for SQLite and PostgreSQL. Statements use PostgreSQL-style parameters
// ($1, $2, ...); values are always bound, never spliced into the text.
// Rows come back as text (NULL as nullopt): integers in decimal, doubles with
// 17 significant digits, booleans as "1"/"0" (SQLite) or "t"/"f" (PostgreSQL);
// ParseInt/ParseDouble/ParseBool below read either.
//
// Every error is a one-line StoreError that already names the store
// ("store .griffin/griffin.db: database is locked").
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "util/status.h"

namespace griffin {

enum class SqlDialect { kSqlite, kPostgres };

// NULL, an integer, a double, text or a boolean.
using SqlParam = std::variant<std::monostate, int64_t, double, std::string, bool>;
using SqlRow = std::vector<std::optional<std::string>>;

class SqlConnection {
 public:
  virtual ~SqlConnection() = default;
  virtual SqlDialect dialect() const = 0;
  // Runs one statement and returns its rows (none for DDL/DML without RETURNING).
  virtual Result<std::vector<SqlRow>> Query(std::string_view sql,
                                            const std::vector<SqlParam>& params = {}) = 0;
  // "sqlite:PATH" or the PostgreSQL URI without its password.
  virtual std::string Describe() const = 0;
  // A StoreError "store <where>: <message>", the message made one line.
  virtual Status Error(std::string_view message) const = 0;
};

// Runs `sql` and drops its rows.
Status Exec(SqlConnection& conn, std::string_view sql, const std::vector<SqlParam>& params = {});

// Runs `body` inside a write transaction: SQLite's BEGIN IMMEDIATE (takes the
// database write lock up front, so concurrent writers queue on busy_timeout
// instead of failing on lock upgrade) or PostgreSQL's BEGIN. Commits when
// `body` returns OK, rolls back otherwise and returns body's error.
Status InWriteTransaction(SqlConnection& conn, const std::function<Status()>& body);

// Readers of result text. A NULL reads as `fallback`.
int64_t ParseInt(const std::optional<std::string>& text, int64_t fallback = 0);
double ParseDouble(const std::optional<std::string>& text, double fallback = 0);
bool ParseBool(const std::optional<std::string>& text, bool fallback = false);

// Collapses a (possibly multi-line) driver message into one trimmed line.
std::string OneLine(std::string_view message);

// Now, UTC, ISO 8601 with seconds: "2024-05-01T12:00:00Z". `offset_seconds`
// shifts it (negative: in the past).
std::string UtcNowIso8601(int64_t offset_seconds = 0);

}  // namespace griffin
