// Incremental reads of a table or query (`source.incremental: {column: c}`):
// the watermark is the largest value of `c` a run read, and the next run
// reads only the rows past it.
//
//   watermark:  SELECT MAX("c") FROM <from> WHERE (<where>) AND "c" > $after
//   rows:       ... WHERE (<where>) AND "c" > $after AND "c" <= $through
//
// The bounds are bound parameters (never text in the SQL), of the type the
// database gave MAX (integers, floating point, text, date, timestamp; any
// other type is a UsageError naming the column). A watermark travels as
// `value`, the base64 of an Arrow IPC stream of one row and one column, so it
// binds back as exactly the type and value it was read as; `text` is how
// people read it. Reading up to a `through` fixed before the rows makes rows
// written meanwhile wait for the next run instead of being skipped. Without
// an `after` (the first run) the rows whose column is NULL are read too; a
// later run never reads them (NULL is past no watermark).
#pragma once

#include <arrow/record_batch.h>

#include <memory>
#include <optional>
#include <string>

#include "connectors/sql/adbc_driver.h"
#include "io/input_source.h"
#include "io/source_registry.h"

namespace griffin::sql {

// A WHERE condition over `from`'s rows and the parameters it binds, in order.
struct SqlCondition {
  std::string sql;                              // empty: every row
  std::shared_ptr<arrow::RecordBatch> params;   // null: none
};

// `$n` (PostgreSQL, DuckDB) or `?n` (SQLite): the n-th bound parameter, from 1.
std::string Placeholder(SqlEngine engine, int n);
// One row of parameters, `values` (one-value arrays) in order; null for none.
std::shared_ptr<arrow::RecordBatch> ParamRow(const arrow::ArrayVector& values);

// The condition that reads what `options` asks: its `where` (where_sql.h:
// quoted identifiers, bound values, numbered first) and, when
// options.increment_bounded, the increment's bounds.
Result<SqlCondition> RowCondition(SqlEngine engine, const ReadOptions& options, const std::string& context);

// Binds `condition`'s parameters, if any, to `statement`.
Status BindCondition(const SqlCondition& condition, AdbcStatementHandle& statement, const std::string& context);

// The largest value of options.incremental_column among the rows of `from`
// (quoted table or parenthesized query) that `where` matches past
// options.increment_after; nullopt when there is none.
Result<std::optional<SourceWatermark>> ReadWatermark(const std::shared_ptr<AdbcConnectionHandle>& connection,
                                                     SqlEngine engine, const std::string& from,
                                                     const ReadOptions& options, const std::string& context);

// A watermark's value from a one-row array, and back (for tests and binding).
Result<SourceWatermark> EncodeWatermark(const std::shared_ptr<arrow::Array>& one_value, const std::string& column);
Result<std::shared_ptr<arrow::Array>> DecodeWatermark(const std::string& value, const std::string& context);

}  // namespace griffin::sql
