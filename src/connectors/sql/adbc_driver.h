// Loading an ADBC driver from its shared library with dlopen, and the handles
// (database, connection, statement) that release themselves.
//
//   ASSIGN_OR_RETURN(auto driver, AdbcDriverLibrary::Load(SqlEngine::kSqlite));
//   ASSIGN_OR_RETURN(auto database, AdbcDatabaseHandle::Open(driver, {{"uri", "file:x.db"}}));
//
// Where the libraries are (FindDriverLibrary): an environment variable names
// the file (GRIFFIN_ADBC_SQLITE_DRIVER, GRIFFIN_ADBC_POSTGRESQL_DRIVER,
// GRIFFIN_DUCKDB_LIBRARY), else the path CMake found at configure time in the
// pinned PyPI wheels (adbc-driver-sqlite, adbc-driver-postgresql: the
// self-contained libadbc_driver_*.so; duckdb: its extension module, which
// exports duckdb_adbc_init and needs libpython's symbols, loaded first).
// A library that is missing or does not load is an InputError naming the file
// and the variable that overrides it.
//
// Loaded libraries stay loaded for the life of the process (drivers keep
// global state; unloading them is never safe). Thread safety: a driver may be
// shared; each handle is used by one thread at a time.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "connectors/sql/adbc_abi.h"
#include "util/status.h"

namespace griffin::sql {

enum class SqlEngine { kSqlite, kPostgresql, kDuckdb };
const char* SqlEngineName(SqlEngine engine);  // "sqlite", "postgresql", "duckdb"

// The library file for `engine` (the environment override, else the built-in default).
std::string FindDriverLibrary(SqlEngine engine);
// The environment variable that overrides it.
const char* DriverLibraryVariable(SqlEngine engine);

class AdbcDriverLibrary {
 public:
  // Loads (once per process and engine) and initializes the driver.
  static Result<std::shared_ptr<const AdbcDriverLibrary>> Load(SqlEngine engine);
  AdbcDriver* driver() const { return driver_.get(); }
  SqlEngine engine() const { return engine_; }

 private:
  SqlEngine engine_ = SqlEngine::kSqlite;
  std::unique_ptr<AdbcDriver> driver_;
};

// An AdbcError's message (or `fallback`), released; never holds a password
// unless the driver's message did (callers redact URIs they print).
std::string TakeAdbcError(AdbcError* error, const std::string& fallback = "unknown error");

class AdbcDatabaseHandle {
 public:
  // New + options + Init. Errors are InputErrors "<context>: <driver message>".
  static Result<std::unique_ptr<AdbcDatabaseHandle>> Open(std::shared_ptr<const AdbcDriverLibrary> library,
                                                          const std::map<std::string, std::string>& options,
                                                          const std::string& context);
  ~AdbcDatabaseHandle();
  AdbcDatabase* get() { return &database_; }
  AdbcDriver* driver() const { return library_->driver(); }
  const std::shared_ptr<const AdbcDriverLibrary>& library() const { return library_; }

 private:
  std::shared_ptr<const AdbcDriverLibrary> library_;
  AdbcDatabase database_{};
};

class AdbcConnectionHandle {
 public:
  static Result<std::unique_ptr<AdbcConnectionHandle>> Open(std::shared_ptr<AdbcDatabaseHandle> database,
                                                            const std::string& context);
  ~AdbcConnectionHandle();
  AdbcConnection* get() { return &connection_; }
  AdbcDriver* driver() const { return database_->driver(); }
  // Sets a connection option; a driver that refuses it is an InputError.
  Status SetOption(const std::string& key, const std::string& value, const std::string& context);
  // Commits the open transaction (autocommit off).
  Status Commit(const std::string& context);

 private:
  std::shared_ptr<AdbcDatabaseHandle> database_;
  AdbcConnection connection_{};
};

// One SQL statement on a connection (no SQL: a bulk ingest, set by options). Release the stream Execute gives before
// the handle (the driver's stream may use the statement's state).
class AdbcStatementHandle {
 public:
  static Result<std::unique_ptr<AdbcStatementHandle>> Open(std::shared_ptr<AdbcConnectionHandle> connection,
                                                           const std::string& sql, const std::string& context);
  ~AdbcStatementHandle();
  // Sets a statement option; a driver that does not know it is an InputError.
  Status SetOption(const std::string& key, const std::string& value, const std::string& context);
  // Runs the statement; the result stream is the caller's to release.
  Result<ArrowArrayStream> Execute(const std::string& context);
  // Runs a statement that returns no rows (SET ..., INSERT ..., a bulk ingest).
  Status ExecuteUpdate(const std::string& context);
  // Binds a stream of rows (a bulk ingest's data); the statement takes it.
  Status BindStream(ArrowArrayStream* stream, const std::string& context);

 private:
  std::shared_ptr<AdbcConnectionHandle> connection_;
  AdbcStatement statement_{};
};

}  // namespace griffin::sql
