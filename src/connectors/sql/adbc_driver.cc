#include "connectors/sql/adbc_driver.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

namespace griffin::sql {
namespace {

// Defaults found by CMake in the pinned wheels (CMakeLists.txt); empty when not configured.
#ifndef GRIFFIN_ADBC_SQLITE_DRIVER_DEFAULT
#define GRIFFIN_ADBC_SQLITE_DRIVER_DEFAULT ""
#endif
#ifndef GRIFFIN_ADBC_POSTGRESQL_DRIVER_DEFAULT
#define GRIFFIN_ADBC_POSTGRESQL_DRIVER_DEFAULT ""
#endif
#ifndef GRIFFIN_DUCKDB_LIBRARY_DEFAULT
#define GRIFFIN_DUCKDB_LIBRARY_DEFAULT ""
#endif
#ifndef GRIFFIN_LIBPYTHON_DEFAULT
#define GRIFFIN_LIBPYTHON_DEFAULT ""
#endif

const char* InitSymbol(SqlEngine engine) {
  return engine == SqlEngine::kDuckdb ? "duckdb_adbc_init" : "AdbcDriverInit";
}

// DuckDB's ADBC entry point lives in its Python extension module, which
// refers to libpython's symbols: they must be loaded (globally) first.
Status LoadLibpythonFor(const std::string& library) {
  const char* override_path = std::getenv("GRIFFIN_LIBPYTHON");
  const std::string path = override_path && *override_path ? override_path : GRIFFIN_LIBPYTHON_DEFAULT;
  if (dlsym(RTLD_DEFAULT, "PyExc_ImportError") != nullptr) return Status::OK();  // inside Python already
  if (path.empty() || dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL) == nullptr)
    return Status::InputError(library + ": DuckDB's library needs libpython (" + (path.empty() ? "not found" : path) +
                              "; set GRIFFIN_LIBPYTHON)");
  return Status::OK();
}

}  // namespace

const char* SqlEngineName(SqlEngine engine) {
  switch (engine) {
    case SqlEngine::kSqlite: return "sqlite";
    case SqlEngine::kPostgresql: return "postgresql";
    case SqlEngine::kDuckdb: return "duckdb";
  }
  return "unknown";
}

const char* DriverLibraryVariable(SqlEngine engine) {
  switch (engine) {
    case SqlEngine::kSqlite: return "GRIFFIN_ADBC_SQLITE_DRIVER";
    case SqlEngine::kPostgresql: return "GRIFFIN_ADBC_POSTGRESQL_DRIVER";
    case SqlEngine::kDuckdb: return "GRIFFIN_DUCKDB_LIBRARY";
  }
  return "";
}

std::string FindDriverLibrary(SqlEngine engine) {
  const char* override_path = std::getenv(DriverLibraryVariable(engine));
  if (override_path && *override_path) return override_path;
  switch (engine) {
    case SqlEngine::kSqlite: return GRIFFIN_ADBC_SQLITE_DRIVER_DEFAULT;
    case SqlEngine::kPostgresql: return GRIFFIN_ADBC_POSTGRESQL_DRIVER_DEFAULT;
    case SqlEngine::kDuckdb: return GRIFFIN_DUCKDB_LIBRARY_DEFAULT;
  }
  return "";
}

Result<std::shared_ptr<const AdbcDriverLibrary>> AdbcDriverLibrary::Load(SqlEngine engine) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const AdbcDriverLibrary>>& loaded =
      *new std::map<std::string, std::shared_ptr<const AdbcDriverLibrary>>();
  const std::string path = FindDriverLibrary(engine);
  const std::string how = std::string(" (install the pinned wheels: pip install -r requirements.txt; or set ") +
                          DriverLibraryVariable(engine) + ")";
  if (path.empty()) return Status::InputError(std::string("no ") + SqlEngineName(engine) + " driver library is configured" + how);
  std::lock_guard<std::mutex> lock(mutex);
  if (auto found = loaded.find(path); found != loaded.end()) return found->second;
  if (engine == SqlEngine::kDuckdb) RETURN_IF_ERROR(LoadLibpythonFor(path));
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    return Status::InputError(std::string(SqlEngineName(engine)) + " driver: cannot load " + path + ": " +
                              (why ? why : "unknown error") + how);
  }
  auto init = reinterpret_cast<AdbcDriverInitFunc>(dlsym(handle, InitSymbol(engine)));
  if (init == nullptr)
    return Status::InputError(path + ": not an ADBC driver (no " + InitSymbol(engine) + ")" + how);
  auto library = std::shared_ptr<AdbcDriverLibrary>(new AdbcDriverLibrary());
  library->engine_ = engine;
  library->driver_ = std::make_unique<AdbcDriver>();
  AdbcError error = ADBC_ERROR_INIT;
  AdbcStatusCode code = init(ADBC_VERSION_1_1_0, library->driver_.get(), &error);
  if (code == ADBC_STATUS_NOT_IMPLEMENTED) {
    TakeAdbcError(&error);
    *library->driver_ = AdbcDriver{};
    error = ADBC_ERROR_INIT;
    code = init(ADBC_VERSION_1_0_0, library->driver_.get(), &error);
  }
  if (code != ADBC_STATUS_OK) return Status::InputError(path + ": driver init failed: " + TakeAdbcError(&error));
  loaded[path] = library;
  return std::shared_ptr<const AdbcDriverLibrary>(library);
}

std::string TakeAdbcError(AdbcError* error, const std::string& fallback) {
  std::string message = error->message && *error->message ? error->message : fallback;
  if (error->release) error->release(error);
  for (char& c : message)
    if (c == '\n' || c == '\r') c = ' ';  // one line
  while (!message.empty() && message.back() == ' ') message.pop_back();
  return message;
}

Result<std::unique_ptr<AdbcDatabaseHandle>> AdbcDatabaseHandle::Open(
    std::shared_ptr<const AdbcDriverLibrary> library, const std::map<std::string, std::string>& options,
    const std::string& context) {
  auto handle = std::unique_ptr<AdbcDatabaseHandle>(new AdbcDatabaseHandle());
  handle->library_ = std::move(library);
  AdbcDriver* driver = handle->library_->driver();
  AdbcError error = ADBC_ERROR_INIT;
  handle->database_.private_driver = driver;
  if (driver->DatabaseNew(&handle->database_, &error) != ADBC_STATUS_OK)
    return Status::InputError(context + ": " + TakeAdbcError(&error));
  for (const auto& [key, value] : options) {
    if (driver->DatabaseSetOption(&handle->database_, key.c_str(), value.c_str(), &error) != ADBC_STATUS_OK)
      return Status::InputError(context + ": option " + key + ": " + TakeAdbcError(&error));
  }
  if (driver->DatabaseInit(&handle->database_, &error) != ADBC_STATUS_OK)
    return Status::InputError(context + ": " + TakeAdbcError(&error));
  return handle;
}

AdbcDatabaseHandle::~AdbcDatabaseHandle() {
  if (database_.private_data == nullptr) return;
  AdbcError error = ADBC_ERROR_INIT;
  library_->driver()->DatabaseRelease(&database_, &error);
  TakeAdbcError(&error);
}

Result<std::unique_ptr<AdbcConnectionHandle>> AdbcConnectionHandle::Open(std::shared_ptr<AdbcDatabaseHandle> database,
                                                                         const std::string& context) {
  auto handle = std::unique_ptr<AdbcConnectionHandle>(new AdbcConnectionHandle());
  handle->database_ = std::move(database);
  AdbcDriver* driver = handle->driver();
  AdbcError error = ADBC_ERROR_INIT;
  handle->connection_.private_driver = driver;
  if (driver->ConnectionNew(&handle->connection_, &error) != ADBC_STATUS_OK)
    return Status::InputError(context + ": " + TakeAdbcError(&error));
  if (driver->ConnectionInit(&handle->connection_, handle->database_->get(), &error) != ADBC_STATUS_OK)
    return Status::InputError(context + ": " + TakeAdbcError(&error));
  return handle;
}

AdbcConnectionHandle::~AdbcConnectionHandle() {
  if (connection_.private_data == nullptr) return;
  AdbcError error = ADBC_ERROR_INIT;
  driver()->ConnectionRelease(&connection_, &error);
  TakeAdbcError(&error);
}

Status AdbcConnectionHandle::SetOption(const std::string& key, const std::string& value, const std::string& context) {
  AdbcError error = ADBC_ERROR_INIT;
  if (driver()->ConnectionSetOption(&connection_, key.c_str(), value.c_str(), &error) != ADBC_STATUS_OK)
    return Status::InputError(context + ": " + key + ": " + TakeAdbcError(&error));
  return Status::OK();
}

Status AdbcConnectionHandle::Commit(const std::string& context) {
  AdbcError error = ADBC_ERROR_INIT;
  if (driver()->ConnectionCommit(&connection_, &error) != ADBC_STATUS_OK)
    return Status::InputError(context + ": commit: " + TakeAdbcError(&error));
  return Status::OK();
}

Status AdbcStatementHandle::BindStream(ArrowArrayStream* stream, const std::string& context) {
  AdbcError error = ADBC_ERROR_INIT;
  if (connection_->driver()->StatementBindStream(&statement_, stream, &error) != ADBC_STATUS_OK)
    return Status::InputError(context + ": " + TakeAdbcError(&error));
  return Status::OK();
}

Result<std::unique_ptr<AdbcStatementHandle>> AdbcStatementHandle::Open(
    std::shared_ptr<AdbcConnectionHandle> connection, const std::string& sql, const std::string& context) {
  auto handle = std::unique_ptr<AdbcStatementHandle>(new AdbcStatementHandle());
  handle->connection_ = std::move(connection);
  AdbcDriver* driver = handle->connection_->driver();
  AdbcError error = ADBC_ERROR_INIT;
  handle->statement_.private_driver = driver;
  if (driver->StatementNew(handle->connection_->get(), &handle->statement_, &error) != ADBC_STATUS_OK)
    return Status::InputError(context + ": " + TakeAdbcError(&error));
  if (!sql.empty() && driver->StatementSetSqlQuery(&handle->statement_, sql.c_str(), &error) != ADBC_STATUS_OK)
    return Status::InputError(context + ": " + TakeAdbcError(&error));
  return handle;
}

AdbcStatementHandle::~AdbcStatementHandle() {
  if (statement_.private_data == nullptr) return;
  AdbcError error = ADBC_ERROR_INIT;
  connection_->driver()->StatementRelease(&statement_, &error);
  TakeAdbcError(&error);
}

Status AdbcStatementHandle::SetOption(const std::string& key, const std::string& value, const std::string& context) {
  AdbcError error = ADBC_ERROR_INIT;
  if (connection_->driver()->StatementSetOption(&statement_, key.c_str(), value.c_str(), &error) != ADBC_STATUS_OK)
    return Status::InputError(context + ": " + key + ": " + TakeAdbcError(&error));
  return Status::OK();
}

Result<ArrowArrayStream> AdbcStatementHandle::Execute(const std::string& context) {
  ArrowArrayStream stream{};
  AdbcError error = ADBC_ERROR_INIT;
  if (connection_->driver()->StatementExecuteQuery(&statement_, &stream, nullptr, &error) != ADBC_STATUS_OK)
    return Status::InputError(context + ": " + TakeAdbcError(&error));
  return stream;
}

Status AdbcStatementHandle::ExecuteUpdate(const std::string& context) {
  AdbcError error = ADBC_ERROR_INIT;
  if (connection_->driver()->StatementExecuteQuery(&statement_, nullptr, nullptr, &error) != ADBC_STATUS_OK)
    return Status::InputError(context + ": " + TakeAdbcError(&error));
  return Status::OK();
}

}  // namespace griffin::sql
