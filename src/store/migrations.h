// Numbered schema migrations of the run store. The store records the numbers
// it has applied in schema_migrations(number, applied_at); opening a store
// applies the missing ones in order, so an old store upgrades itself.
// Migrations only ever add: a released migration is never edited; a schema
// change is a new number appended to the list in migrations.cc. (Migration 5
// widens a CHECK constraint, which SQLite can only do by rebuilding the table.)
//
// One logical schema serves both backends. The DDL uses type names both
// accept (BIGINT, DOUBLE PRECISION, BOOLEAN, TEXT: SQLite maps them to its
// INTEGER/REAL/NUMERIC/TEXT affinities); what differs per dialect is only how
// concurrent openers are serialized (see Migrate).
#pragma once

#include "store/sql_connection.h"
#include "util/status.h"

namespace griffin {

// The newest migration this build knows.
inline constexpr int kLatestMigration = 10;

// Applies migrations (current, up_to] in one write transaction. Concurrent
// callers on one store are serialized (SQLite: BEGIN IMMEDIATE; PostgreSQL:
// a transaction-scoped advisory lock taken before anything is read), so two
// processes opening an empty store at once both succeed and the second
// applies nothing. `up_to` below kLatestMigration is for tests that build an
// old store. A store whose schema is newer than this build is a StoreError.
Status Migrate(SqlConnection& conn, int up_to = kLatestMigration);

// The highest applied migration, 0 for an empty store.
Result<int> CurrentMigration(SqlConnection& conn);

}  // namespace griffin
