// Scan mode: a database table or query read as Arrow batches through ADBC
// (sqlite://, postgresql://, duckdb://; URIs in sql_uri.h).
//
//   SELECT <columns> FROM <"schema"."table" | (query) AS griffin_query> [WHERE (<where>) AND <increment>]
//
// - Increments (ReadOptions::incremental_column, increment_bounded): the
//   rows between two watermarks, bound as parameters (sql_increment.h).
//
// - Columns: with ReadOptions::project_columns, only the table's columns that
//   the rules name (ReadOptions::json_columns), in table order; a rule column
//   the table lacks is simply absent, so the engine reports it as it does for
//   files (a schema error, or no rows when `required: false`). Otherwise all.
//   The columns are learnt by running the same FROM with WHERE 1=0 first.
// - Identifiers are quoted (QuoteIdentifier): a hostile table name is a name
//   that does not exist, never SQL. `where` and `query` are SQL the user
//   wrote (rule file, command line); they run in a read-only session
//   (PostgreSQL: SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY; SQLite:
//   the file opened with mode=ro; DuckDB: access_mode=READ_ONLY), as one
//   statement.
// - A PostgreSQL table (no --query) of 2 ranges of blocks or more is read
//   over several connections in ctid order (OpenSqlTableScan, parallel_scan.h).
// - Batches go through OpenRecordBatchReaderSource, so arrow_check and the
//   typed-input rules of docs/semantics.md apply: what each database type
//   becomes is in docs/sources.md (PostgreSQL NUMERIC arrives as text and is
//   parsed as text by float64/int64 rules, exactly as a CSV field is).
// Errors: unreachable server, bad credentials, missing file, table or column,
// SQL syntax: InputError "<URI with password ***>: <driver message>" (exit 3).
#pragma once

#include <memory>
#include <string>

#include <arrow/record_batch.h>

#include "connectors/sql/adbc_driver.h"
#include "connectors/sql/parallel_scan.h"
#include "connectors/sql/sql_uri.h"
#include "io/input_source.h"
#include "io/source_registry.h"
#include "util/status.h"

namespace griffin::sql {

Result<std::unique_ptr<InputSource>> OpenSqlSource(const std::string& uri, const ReadOptions& options,
                                                   int input_index);

// The rows of one SELECT (`sql`, run as is) on an open connection, with
// columns in their engine types as above; `engine` says whose driver it is.
// The connection stays in use until the source is released. For
// --mode pushdown's fallback run (pushdown_runner.h), which reads inside the
// transaction of its aggregate. `params`, when set, is one row of values
// bound to the SELECT's placeholders (an incremental run's bounds).
Result<std::unique_ptr<InputSource>> OpenSqlQuerySource(std::shared_ptr<AdbcConnectionHandle> connection,
                                                        SqlEngine engine, const std::string& sql,
                                                        const std::string& context, const ReadOptions& options,
                                                        int input_index,
                                                        std::shared_ptr<arrow::RecordBatch> params = nullptr);
// The same rows as a RecordBatchReader in the engine types (one range of
// parallel_scan.h's scan).
Result<std::shared_ptr<arrow::RecordBatchReader>> OpenSqlQueryReader(std::shared_ptr<AdbcConnectionHandle> connection,
                                                                     SqlEngine engine, const std::string& sql,
                                                                     const std::string& context,
                                                                     const ReadOptions& options,
                                                                     const std::shared_ptr<arrow::RecordBatch>& params);
// A table's rows, `scan` (its select list, quoted name and condition): a
// PostgreSQL table over several connections in ctid order
// (parallel_scan.h; the connection is first put in a REPEATABLE READ
// transaction unless `in_repeatable_read`), anything else as one SELECT on
// `connection`.
Result<std::unique_ptr<InputSource>> OpenSqlTableScan(std::shared_ptr<AdbcConnectionHandle> connection,
                                                      const SqlTarget& target, const TableScan& scan,
                                                      const ReadOptions& options, int input_index,
                                                      bool in_repeatable_read);
// The names of the columns `from` (a quoted table or a parenthesized query)
// yields: the query run with WHERE 1=0.
Result<std::vector<std::string>> SourceColumnNames(const std::shared_ptr<AdbcConnectionHandle>& connection,
                                                   const std::string& from, const std::string& context);

// What identifies a table's version for the run store: its catalogue schema
// and schema version (sql_catalogue.h), as etag "schema:VERSION" and
// schema_json; size and mtime unknown (-1). A query (no table=) has none.
Result<SourceIdentity> DescribeSqlTable(const std::string& uri);

// The watermark of the rows OpenSqlSource would read past
// options.increment_after (sql_increment.h); the adapter's `watermark`.
Result<std::optional<SourceWatermark>> ReadSqlWatermark(const std::string& uri, const ReadOptions& options);

}  // namespace griffin::sql
