// The adapters griffin is built with, registered with the adapter registry
// (io/source_registry.h) on its first use. A new adapter adds one line here;
// no front end changes.
#include "connectors/delta/delta_adapter.h"
#include "connectors/objectstore/object_adapter.h"
#include "connectors/sql/sql_source.h"
#include "connectors/sql/table_output.h"
#include "io/source_registry.h"

namespace griffin {

void RegisterBuiltinSources() {
  RegisterObjectStoreSources();  // s3://, gs://
  delta::RegisterDeltaSources();  // delta:PATH, folders holding _delta_log (s3://, gs:// too)
  // Databases: tables and queries in, dead letters and clean rows out (as tables).
  const SourcePushdown sql_pushdown{.columns = true, .filter = true, .query = true, .increment = true};
  for (const auto& [scheme, example] :
       {std::pair{"sqlite", "sqlite:///path/file.db?table=name"},
        std::pair{"duckdb", "duckdb:///path/file.duckdb?table=name"},
        std::pair{"postgresql", "postgresql://user@host:port/db?table=schema.name"},
        std::pair{"postgres", "postgres://user@host:port/db?table=schema.name"}}) {
    SourceAdapter adapter{sql::OpenSqlSource, sql_pushdown, example};
    adapter.open_output = [](const std::string& uri, const OutputObjectOptions& options) {
      return sql::OpenSqlTableOutput(uri, options);
    };
    adapter.output_format = InputFormat::kArrow;
    adapter.watermark = sql::ReadSqlWatermark;
    adapter.describe = sql::DescribeSqlTable;
    RegisterSource(scheme, std::move(adapter));
  }
}

}  // namespace griffin
