#include "store/sqlite_store.h"

#include <sqlite3.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <system_error>
#include <thread>

#include "store/sql_run_store.h"

namespace griffin {
namespace {

// "$1" -> "?1": SQLite's numbered parameter. The store's SQL has no '$' in
// literals, so a plain scan is exact.
std::string ToSqliteParameters(std::string_view sql) {
  std::string out;
  out.reserve(sql.size());
  for (size_t i = 0; i < sql.size(); ++i) {
    if (sql[i] == '$' && i + 1 < sql.size() && std::isdigit(static_cast<unsigned char>(sql[i + 1]))) {
      out += '?';
    } else {
      out += sql[i];
    }
  }
  return out;
}

std::optional<std::string> ColumnText(sqlite3_stmt* stmt, int i) {
  switch (sqlite3_column_type(stmt, i)) {
    case SQLITE_NULL:
      return std::nullopt;
    case SQLITE_INTEGER:
      return std::to_string(sqlite3_column_int64(stmt, i));
    case SQLITE_FLOAT: {
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.17g", sqlite3_column_double(stmt, i));
      return std::string(buf);
    }
    default: {
      const auto* data = static_cast<const char*>(sqlite3_column_blob(stmt, i));
      int size = sqlite3_column_bytes(stmt, i);
      return data ? std::string(data, size) : std::string();
    }
  }
}

class SqliteConnection : public SqlConnection {
 public:
  SqliteConnection(std::string path, sqlite3* db) : path_(std::move(path)), db_(db) {}
  ~SqliteConnection() override { sqlite3_close_v2(db_); }
  SqliteConnection(const SqliteConnection&) = delete;
  SqliteConnection& operator=(const SqliteConnection&) = delete;

  SqlDialect dialect() const override { return SqlDialect::kSqlite; }
  std::string Describe() const override { return "sqlite:" + path_; }
  Status Error(std::string_view message) const override {
    return Status::StoreError("store " + path_ + ": " + OneLine(message));
  }

  Result<std::vector<SqlRow>> Query(std::string_view sql,
                                    const std::vector<SqlParam>& params) override {
    std::string text = ToSqliteParameters(sql);
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_, text.c_str(), static_cast<int>(text.size()), &stmt, nullptr) !=
        SQLITE_OK) {
      return Error(sqlite3_errmsg(db_));
    }
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> guard(stmt, sqlite3_finalize);
    for (size_t i = 0; i < params.size(); ++i) {
      int index = static_cast<int>(i + 1);
      const SqlParam& p = params[i];
      int rc = SQLITE_OK;
      if (std::holds_alternative<std::monostate>(p)) {
        rc = sqlite3_bind_null(stmt, index);
      } else if (auto* v = std::get_if<int64_t>(&p)) {
        rc = sqlite3_bind_int64(stmt, index, *v);
      } else if (auto* d = std::get_if<double>(&p)) {
        rc = sqlite3_bind_double(stmt, index, *d);
      } else if (auto* s = std::get_if<std::string>(&p)) {
        rc = sqlite3_bind_text64(stmt, index, s->data(), s->size(), SQLITE_TRANSIENT, SQLITE_UTF8);
      } else {
        rc = sqlite3_bind_int(stmt, index, std::get<bool>(p) ? 1 : 0);
      }
      if (rc != SQLITE_OK) return Error(sqlite3_errmsg(db_));
    }
    std::vector<SqlRow> rows;
    for (;;) {
      int rc = sqlite3_step(stmt);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) return Error(sqlite3_errmsg(db_));
      int n = sqlite3_column_count(stmt);
      SqlRow row;
      row.reserve(n);
      for (int i = 0; i < n; ++i) row.push_back(ColumnText(stmt, i));
      rows.push_back(std::move(row));
    }
    return rows;
  }

 private:
  std::string path_;
  sqlite3* db_;
};

Status StoreError(const std::string& path, const std::string& message) {
  return Status::StoreError("store " + path + ": " + OneLine(message));
}

// Puts the database in WAL mode (a persistent property of the file), retrying
// lock conflicts for up to the busy timeout.
Status SetWalMode(SqlConnection& conn, sqlite3* db) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kSqliteBusyTimeoutMs);
  std::minstd_rand jitter(static_cast<unsigned>(getpid()));
  for (;;) {
    Status status = Exec(conn, "PRAGMA journal_mode = WAL");
    if (status.ok() || (sqlite3_errcode(db) & 0xff) != SQLITE_BUSY ||
        std::chrono::steady_clock::now() >= deadline) {
      return status;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5 + jitter() % 20));
  }
}

}  // namespace

Result<std::unique_ptr<SqlConnection>> ConnectSqlite(const std::string& path) {
  namespace fs = std::filesystem;
  if (path.empty()) return StoreError("''", "empty SQLite path");
  std::error_code ec;
  fs::path folder = fs::path(path).parent_path();
  if (!folder.empty() && !fs::is_directory(folder, ec)) {
    fs::create_directories(folder, ec);
    // A concurrent process may have created it meanwhile; only a folder that
    // still is not there is an error.
    if (ec && !fs::is_directory(folder)) {
      return StoreError(path, "cannot create folder " + folder.string() + ": " + ec.message());
    }
  }
  if (fs::is_directory(path, ec)) return StoreError(path, "is a folder, not a database file");

  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close_v2(db);
    return StoreError(path, message);
  }
  sqlite3_busy_timeout(db, kSqliteBusyTimeoutMs);
  auto conn = std::make_unique<SqliteConnection>(path, db);
  // The first statement reads the file: a corrupt one fails here. Switching
  // a new file to WAL needs an exclusive lock and SQLite reports a conflict
  // at once, without its busy handler, so concurrent first opens retry here.
  RETURN_IF_ERROR(SetWalMode(*conn, db));
  RETURN_IF_ERROR(Exec(*conn, "PRAGMA synchronous = NORMAL"));
  RETURN_IF_ERROR(Exec(*conn, "PRAGMA foreign_keys = ON"));
  return std::unique_ptr<SqlConnection>(std::move(conn));
}

Result<std::unique_ptr<RunStore>> OpenSqliteStore(const std::string& path, int migrate_to) {
  ASSIGN_OR_RETURN(std::unique_ptr<SqlConnection> conn, ConnectSqlite(path));
  RETURN_IF_ERROR(Migrate(*conn, migrate_to));
  return std::unique_ptr<RunStore>(std::make_unique<SqlRunStore>(std::move(conn)));
}

}  // namespace griffin
