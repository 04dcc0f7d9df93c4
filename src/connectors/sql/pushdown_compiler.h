// The rules compiled to SQL for `--mode pushdown` and `griffin sql`: one
// aggregate query over the table (and filter) that computes every pushed
// check's evaluated and violation counts, the table metrics, the row count
// and, when it can, the bad rows; and per row-level check a sample query for
// its first violations in row order.
//
// Row order: `_griffin_row` is ROW_NUMBER() OVER () - 1 over the filtered
// source, the order in which a plain SELECT (scan mode) returns the rows: the
// table's physical order, or the query's own. It is the `row` of the report.
//
// A check runs in the database only when the dialect computes exactly what
// the engine computes for the column as the source stores it. Everything else
// (text parsed as numbers or dates, regexes without RE2, row expressions,
// float sums, quantiles, ...) is a *fallback*: the engine runs it in scan mode
// over only its own columns (docs/sql.md lists the rules). A fallback is
// never approximated in SQL. Check placements carry the reason.
//
// Identifiers are quoted by the dialect; values are literals the dialect
// spells exactly (sql_dialect.h). `where` and a `--query` are the user's own
// SQL, run as written inside the read-only session.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "connectors/sql/sql_dialect.h"
#include "plan/plan.h"
#include "util/status.h"

namespace griffin::sql {

// How the source stores a column, as it reaches the engine (sql_source.h's
// engine types: NUMERIC and DECIMAL arrive as text, so they are kText).
enum class StoredType { kText, kInteger, kDouble, kBool, kDate, kTimestamp, kOther };
const char* StoredTypeName(StoredType type);
// How a column of rule type `type` is stored when it is stored as that type.
StoredType NativeStorage(ValueType type);

struct PushdownSource {
  std::string from;   // "schema"."table" or (query) AS griffin_query, already SQL
  std::string where;  // the user's condition, or empty
  // How each column is stored; nullopt: as its rule's type (griffin sql
  // without a database). A column absent from the map is not in the source.
  std::optional<std::map<std::string, StoredType>> columns;
  // ReadOptions::null_values: a string column's value spelled as one of them
  // is null for every check (rules-v1), so string columns are judged as
  // CASE WHEN c IN (<null values>) THEN NULL ELSE c END.
  std::vector<std::string> null_values;
  // The engine's fallback run must read the source's rows in its own order,
  // without windows (griffin.spark: a window shuffles rows, and the engine
  // numbers each partition's rows itself). An error-severity `unique` check,
  // which needs a window to mark its bad rows, then runs in the engine
  // whenever another check does.
  bool windowless_fallback = false;
};

struct CheckPlacement {
  int check_index = 0;      // into Plan::checks
  bool pushed = false;
  std::string reason;       // a fallback's: why the engine runs it
  // Pushed row-level checks: the row predicate of a violation ("" for none,
  // e.g. `type` of a column stored as its type) and the sample query.
  std::string violation;
  std::string sample_sql;
  std::vector<std::string> sample_columns;  // selected after _griffin_row (and _griffin_first for unique)
  bool unique = false;
};

// What one column of the aggregate's single result row means.
struct AggregateOutput {
  enum class Kind {
    kRows, kBadRows, kEvaluated, kViolations, kNonNull, kDistinct, kIntegerSumText, kMin, kMax, kNanCount
  };
  Kind kind;
  int check_index = -1;  // -1 for kRows, kBadRows
};

struct PushdownQuery {
  std::string aggregate_sql;
  std::vector<AggregateOutput> outputs;     // one per select item, in order
  std::vector<CheckPlacement> placements;   // one per Plan::checks entry, same order
  bool bad_rows_in_aggregate = false;       // else the engine's fallback run counts them
  // The fallback run's query: the fallback checks' columns and, when pushed
  // error checks exist, `_griffin_pushed_bad` (true when one of them fails).
  std::string fallback_sql;
  std::vector<std::string> fallback_columns;
  bool fallback_has_pushed_bad = false;
  bool fallback_uses_windows = false;       // _griffin_pushed_bad needs pushed error unique checks' windows
  // The planner's plan when checks fall back (pushdown_runner.h): every rule
  // column the source has, for one scan of the whole suite by the engine.
  std::string scan_sql;
  std::string scan_select;   // scan_sql's select list (a PostgreSQL table's range scan reuses it)
  bool any_fallback() const;
};

inline constexpr const char* kPushedBadColumn = "_griffin_pushed_bad";

Result<PushdownQuery> CompilePushdown(const Plan& plan, const SqlDialect& dialect, const PushdownSource& source,
                                      int64_t max_violations);

}  // namespace griffin::sql

namespace griffin::sql {

// `table` ("name" or "schema.name", split at the first dot) quoted by `dialect`.
std::string DialectTableName(const SqlDialect& dialect, const std::string& table);

// The queries as a SQL script for people: the aggregate, each sample query,
// the fallback query, and a comment per check saying where it runs and why.
std::string RenderPushdownScript(const Plan& plan, const PushdownQuery& query, const SqlDialect& dialect);

}  // namespace griffin::sql
