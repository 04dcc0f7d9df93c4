// The SQLite backend of the run store: one database file (by default
// .griffin/griffin.db), shared safely by concurrent processes.
//
// Settings on every connection: WAL journal (readers never block the writer),
// synchronous=NORMAL (a crash of the process loses nothing committed; a power
// loss may lose the last transactions but never corrupts the file),
// foreign_keys=ON, and a 10 s busy_timeout: writers (BEGIN IMMEDIATE) queue on
// the database lock instead of failing.
#pragma once

#include <memory>
#include <string>

#include "store/migrations.h"
#include "store/run_store.h"
#include "store/sql_connection.h"

namespace griffin {

// How long a statement waits for another process's write lock.
inline constexpr int kSqliteBusyTimeoutMs = 10000;

// Opens (creating the file and its folders if absent) the database at `path`.
// StoreErrors name the path: "store a/b.db: file is not a database",
// "store f/x.db: cannot create folder f: Not a directory".
Result<std::unique_ptr<SqlConnection>> ConnectSqlite(const std::string& path);

// ConnectSqlite, then migrations up to `migrate_to` (tests build old stores
// with a smaller number; everything else takes the default).
Result<std::unique_ptr<RunStore>> OpenSqliteStore(const std::string& path,
                                                  int migrate_to = kLatestMigration);

}  // namespace griffin
