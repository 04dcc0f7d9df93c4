// The adapters griffin is built with, registered with the adapter registry
// (io/source_registry.h) on its first use. A new adapter adds one line here;
// no front end changes.
#include "connectors/objectstore/object_adapter.h"
#include "connectors/sql/sql_source.h"
#include "io/source_registry.h"

namespace griffin {

void RegisterBuiltinSources() {
  RegisterObjectStoreSources();  // s3://, gs://
  const SourcePushdown sql_pushdown{.columns = true, .filter = true, .query = true};
  RegisterSource("sqlite", {sql::OpenSqlSource, sql_pushdown, "sqlite:///path/file.db?table=name"});
  RegisterSource("duckdb", {sql::OpenSqlSource, sql_pushdown, "duckdb:///path/file.duckdb?table=name"});
  RegisterSource("postgresql", {sql::OpenSqlSource, sql_pushdown, "postgresql://user@host:port/db?table=schema.name"});
  RegisterSource("postgres", {sql::OpenSqlSource, sql_pushdown, "postgres://user@host:port/db?table=schema.name"});
}

}  // namespace griffin
