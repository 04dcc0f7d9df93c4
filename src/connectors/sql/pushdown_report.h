// A pushdown run's report from its parts, whoever ran the SQL: the
// aggregate's one row, the failing pushed checks' samples (their first
// violations), and the engine's run of the fallback checks. Shared by
// RunPushdown (a database through ADBC, pushdown_runner.h) and griffin.spark's
// SQL mode (Spark SQL's results handed over as Arrow).
//
//   ASSIGN_OR_RETURN(AggregateRow row, ReadAggregateRow(plan, query, aggregate_batches, context));
//   for (placement needing a sample: NeedsSample(query, row, max_violations)) ReadSample(...)
//   RuleSet fallback = FallbackRules(plan, query, stored);   // the engine runs these, if any_fallback()
//   ASSIGN_OR_RETURN(Report report, AssemblePushdownReport(plan, query, dialect, row, violations, fallback...));
//
// Errors: InputError "<context>: <message>" for results of the wrong shape.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <arrow/record_batch.h>

#include "connectors/sql/pushdown_compiler.h"
#include "io/null_matcher.h"
#include "plan/plan.h"
#include "report/report.h"
#include "util/status.h"

namespace griffin::sql {

// What the aggregate's single row says, per check index.
struct AggregateRow {
  int64_t rows = 0;
  std::optional<int64_t> bad_rows;
  std::vector<int64_t> evaluated, violations, non_null, distinct, nan_count;
  std::vector<std::optional<__int128>> sum, min_int, max_int;
  std::vector<std::optional<double>> min_float, max_float;
};

// The aggregate query's result (one row of query.outputs.size() columns).
Result<AggregateRow> ReadAggregateRow(const Plan& plan, const PushdownQuery& query,
                                      const std::vector<std::shared_ptr<arrow::RecordBatch>>& batches,
                                      const std::string& context);

// Whether `placement`'s sample query must run: a pushed check with violations.
bool NeedsSample(const CheckPlacement& placement, const AggregateRow& row, int64_t max_violations);

// A failing pushed check's first violations from its sample query's rows,
// appended to `violations` as (check index, violation).
Status ReadSample(const Plan& plan, const CheckPlacement& placement,
                  const std::vector<std::shared_ptr<arrow::RecordBatch>>& batches, int64_t max_violations,
                  const std::shared_ptr<const NullMatcher>& string_nulls, const std::string& context,
                  std::vector<std::pair<int, ViolationReport>>* violations);

// The rules of the checks that fall back, and the columns they need; plus,
// when pushed error checks exist, an error check on _griffin_pushed_bad
// (0 or 1) that makes the engine count their rows as bad too.
RuleSet FallbackRules(const Plan& plan, const PushdownQuery& query, const std::map<std::string, StoredType>& stored);

// The report: pushed checks judged from `row` (ran_in "database"), fallback
// checks copied from `fallback` (the engine's run of FallbackRules over
// query.fallback_sql, compiled as `fallback_plan`; both null when nothing
// falls back; ran_in "engine"), violations in the engine's order. elapsed_s
// is left to the caller.
Result<Report> AssemblePushdownReport(const Plan& plan, const PushdownQuery& query, const SqlDialect& dialect,
                                      const AggregateRow& row, std::vector<std::pair<int, ViolationReport>> violations,
                                      const Report* fallback, const Plan* fallback_plan, int64_t max_violations,
                                      const std::string& context);

}  // namespace griffin::sql
