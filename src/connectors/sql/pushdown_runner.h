// --mode pushdown: a database table or query validated by SQL where SQL can
// judge exactly, by the engine elsewhere, into the report scan mode gives
// (same counts, bad rows, score, verdict and listed violations).
//
// In one read-only transaction (PostgreSQL: REPEATABLE READ, so every query
// sees the same rows; SQLite and DuckDB: their transaction's snapshot):
//  1. the columns' stored types (stored_types.h), then the rules compiled
//     for the dialect (pushdown_compiler.h);
//  2. the aggregate query: every pushed check's counts, table metrics, rows
//     and, when every check is pushed, the bad rows;
//  3. per pushed row-level check with violations, its sample query (LIMIT
//     max_violations + 1) for its first violations by `_griffin_row`: the
//     order a plain SELECT returns the rows in (the table's physical order,
//     or the query's own);
//  4. when some checks fall back: the engine runs them, and only them, over
//     their own columns (PushdownQuery::fallback_sql), plus, when pushed
//     error checks exist, `_griffin_pushed_bad` so that bad rows are the
//     union of both sides'.
// Each check of the report says where it ran (CheckReport::ran_in) and why.
//
// The planner: when some checks fall back (step 4), the engine reads every
// row anyway, so by default the whole suite runs in one scan of every rule
// column instead of steps 2-4 (the scan report, every check ran_in "engine",
// the reason naming the checks that forced it). At 1M rows in PostgreSQL
// steps 2-4 cost 5.7-5.9x the hand-written aggregate and the one scan
// 1.25-1.28x, in the same runs; at 10M 5.3-6.2x and 0.96-0.99x
// (bench/README.md). `split` (--mode pushdown-split) runs steps 2-4 anyway,
// for wide tables whose fallback checks read few columns.
//
// Per-row outputs (--clean, --quarantine) need every row: scan mode.
// Errors as sql_source.h's: InputError "<URI with password ***>: <message>".
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "exec/engine.h"
#include "plan/plan.h"
#include "connectors/sql/pushdown_compiler.h"
#include "plan/read_options.h"
#include "report/report.h"
#include "rules/rule_set.h"

namespace griffin::sql {

// The mode a run takes (the CLI's --mode, Python's mode=): `mode` when given,
// else the rule file's source.mode, else scan. True for pushdown and
// pushdown-split; UsageError for another word.
Result<bool> ChoosePushdown(const std::string& mode, const RuleSet& rules);
// Whether that mode is pushdown-split (the planner's scan never replaces it).
bool PushdownSplit(const std::string& mode, const RuleSet& rules);
// Why the planner ran `query`'s checks in one scan: the report's ran_in_reason.
std::string WholeScanReason(const Plan& plan, const PushdownQuery& query, const SqlDialect& dialect);

// `griffin validate --explain --mode pushdown`: the plan the run would take for
// the database `uri`, taking each column to be stored as its rule's type (the
// run itself decides from the table's types, without connecting here).
Result<std::string> ExplainPushdown(const Plan& plan, const std::string& uri, bool split);

// UsageError unless pushdown can run over `inputs` with `rules`: one database
// input (postgresql://, sqlite://, duckdb://) and no source.incremental.
Status CheckPushdownInputs(const std::vector<std::string>& inputs, const RuleSet& rules);

// `read_options`: where, query, null_values and batch_rows as scan mode
// takes them; `options`: threads, max_violations and profiling for the
// fallback run (on_rows must be unset).
Result<Report> RunPushdown(std::shared_ptr<const Plan> plan, const std::string& uri, const ReadOptions& read_options,
                           const RunOptions& options, bool split = false);

}  // namespace griffin::sql
