// The PostgreSQL backend of the run store (a store shared by many machines),
// through libpq. Every statement goes through PQexecParams with its values
// as parameters; none is built by splicing values into SQL text.
//
// The URI is libpq's (postgresql://user:password@host:port/db?param=value).
// Griffin adds connect_timeout=5 (so a dead host fails the run's store step
// instead of hanging it), application_name=griffin and client_encoding=UTF8;
// the URI's own values win. Server notices are dropped.
#pragma once

#include <memory>
#include <string>

#include "store/migrations.h"
#include "store/run_store.h"
#include "store/sql_connection.h"

namespace griffin {

inline constexpr int kPostgresConnectTimeoutSeconds = 5;

// The URI without its password: "postgresql://u:secret@h/db?password=x&a=b"
// -> "postgresql://u@h/db?a=b". Used in every message and in Describe().
std::string RedactPostgresUri(const std::string& uri);

// Connects. Errors are one-line StoreErrors naming the redacted URI:
// "store postgresql://u@127.0.0.1:1/db: connection refused",
// "store postgresql://u@h/db: password authentication failed for user "u"".
Result<std::unique_ptr<SqlConnection>> ConnectPostgres(const std::string& uri);

// ConnectPostgres, then migrations up to `migrate_to` (tests build old stores
// with a smaller number; everything else takes the default).
Result<std::unique_ptr<RunStore>> OpenPostgresStore(const std::string& uri,
                                                    int migrate_to = kLatestMigration);

}  // namespace griffin
