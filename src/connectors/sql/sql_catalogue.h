// A table's columns and types as its database's catalogue lists them: the
// schema snapshot the run store caches for a table (keyed by its version), so
// that a changed table reports `schema_changes` as a changed file does.
//
//   SQLite      pragma_table_info(table, schema): name, declared type
//   PostgreSQL  pg_attribute of to_regclass('"schema"."table"') (live columns,
//               in attnum order): name, format_type(atttypid, atttypmod)
//   DuckDB      information_schema.columns (ordinal order): name, data_type
//
// The table's name is a bound parameter, never SQL text. `json` is
// [{"name": .., "type": ..}] in column order, with the database's own type
// names ("integer", "character varying(20)", "TEXT"); `version`, the schema
// version, is the first 16 hex digits of the SHA-256 of `json`: the same
// whenever the catalogue lists the same columns with the same types (a
// column's NOT NULL or default is not part of it).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "connectors/sql/sql_uri.h"
#include "util/status.h"

namespace griffin::sql {

struct TableSchema {
  std::string json;
  std::string version;
};

// The target's table as its catalogue lists it; nullopt when the catalogue
// has no such table (or the target is a query).
Result<std::optional<TableSchema>> ReadTableSchema(const SqlTarget& target);

// The snapshot of (name, type) rows, in order.
TableSchema MakeTableSchema(const std::vector<std::pair<std::string, std::string>>& columns);

}  // namespace griffin::sql
