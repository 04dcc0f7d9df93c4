#include "connectors/sql/pushdown_runner.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <map>
#include <set>

#include "connectors/sql/pushdown_compiler.h"
#include "connectors/sql/pushdown_report.h"
#include "connectors/sql/sql_connect.h"
#include "connectors/sql/sql_query.h"
#include "connectors/sql/sql_source.h"
#include "connectors/sql/sql_uri.h"
#include "connectors/sql/stored_types.h"
#include "connectors/sql/where_sql.h"
#include "connectors/sql/sql_increment.h"
#include "exec/check_report.h"
#include "exec/violation_messages.h"
#include "io/arrow_source.h"
#include "io/null_matcher.h"

namespace griffin::sql {
namespace {

// The engine's run of the fallback checks over fallback_sql's rows.
Result<Report> RunFallback(const std::shared_ptr<AdbcConnectionHandle>& connection, SqlEngine engine,
                           const Plan& plan, const PushdownQuery& query,
                           const std::map<std::string, StoredType>& stored, const ReadOptions& read_options,
                           const RunOptions& options, const std::string& context,
                           const std::shared_ptr<arrow::RecordBatch>& params,
                           std::shared_ptr<const Plan>* fallback_plan) {
  const RuleSet rules = FallbackRules(plan, query, stored);
  ASSIGN_OR_RETURN(*fallback_plan, Plan::Compile(rules, plan.now_micros()));
  ASSIGN_OR_RETURN(auto source, OpenSqlQuerySource(connection, engine, query.fallback_sql, context, read_options, 0,
                                                    params));
  return RunValidation(*fallback_plan, *source, options);
}

// The planner's whole-suite scan: every rule column through the engine, in
// the transaction of the types' probe; each check says why it ran there.
Result<Report> RunWholeScan(const std::shared_ptr<AdbcConnectionHandle>& connection, const SqlTarget& target,
                            std::shared_ptr<const Plan> plan, const PushdownQuery& query, const SqlDialect& dialect,
                            const PushdownSource& from, const ReadOptions& read_options, const RunOptions& options,
                            const SqlCondition& condition) {
  const std::string& context = target.display;
  std::unique_ptr<InputSource> source;
  if (read_options.query.empty()) {  // a table: PostgreSQL reads it over several connections
    ASSIGN_OR_RETURN(source, OpenSqlTableScan(connection, target, {query.scan_select, from.from, condition},
                                              read_options, 0, target.engine == SqlEngine::kPostgresql));
  } else {
    ASSIGN_OR_RETURN(source, OpenSqlQuerySource(connection, target.engine, query.scan_sql, context, read_options, 0,
                                                condition.params));
  }
  ASSIGN_OR_RETURN(Report report, RunValidation(plan, *source, options));
  const std::string why = WholeScanReason(*plan, query, dialect);
  // The report's checks are the plan's, in order (as AssemblePushdownReport's).
  for (size_t i = 0; i < report.checks.size(); ++i) {
    const CheckPlacement* placement = i < query.placements.size() ? &query.placements[i] : nullptr;
    report.checks[i].ran_in = "engine";
    report.checks[i].ran_in_reason = placement && !placement->pushed && !placement->reason.empty()
                                         ? placement->reason + "; " + why : why;
  }
  return report;
}

}  // namespace

std::string WholeScanReason(const Plan& plan, const PushdownQuery& query, const SqlDialect& dialect) {
  std::string names;
  for (const CheckPlacement& placement : query.placements)
    if (!placement.pushed) names += (names.empty() ? "" : ", ") + plan.checks()[placement.check_index].name;
  return std::string("planned as one scan: ") + names + " cannot run in " + dialect.name() +
         " SQL, so the engine reads every row anyway, and one read of every rule column costs less than the "
         "aggregate, the sample queries and that read (--mode pushdown-split runs them)";
}

Result<std::string> ExplainPushdown(const Plan& plan, const std::string& uri, bool split) {
  ASSIGN_OR_RETURN(SqlTarget target, ParseSqlUri(uri));
  const SqlDialect& dialect = *FindSqlDialect(SqlEngineName(target.engine));
  PushdownSource source;
  source.from = "t";
  ASSIGN_OR_RETURN(PushdownQuery query, CompilePushdown(plan, dialect, source, 0));
  std::string out = std::string("pushdown plan (") + dialect.name() +
                    ", each column taken to be stored as its rule's type; the run reads the table's types): ";
  if (!query.any_fallback()) out += "every check compiles to SQL: one aggregate query, and a sample query per failing check";
  else if (split) out += "pushdown-split: the checks SQL can judge in the database, the rest in the engine over their "
                         "own columns";
  else out += WholeScanReason(plan, query, dialect);
  return out + " (griffin sql prints the queries)\n";
}

bool PushdownSplit(const std::string& mode, const RuleSet& rules) {
  return (mode.empty() ? rules.source.mode : mode) == "pushdown-split";
}

Result<bool> ChoosePushdown(const std::string& mode, const RuleSet& rules) {
  const std::string& chosen = mode.empty() ? rules.source.mode : mode;
  if (!chosen.empty() && chosen != "scan" && chosen != "pushdown" && chosen != "pushdown-split")
    return Status::UsageError("--mode: expected scan, pushdown or pushdown-split, got '" + chosen + "'");
  return chosen == "pushdown" || chosen == "pushdown-split";
}

Status CheckPushdownInputs(const std::vector<std::string>& inputs, const RuleSet& rules) {
  const std::string& input = inputs.empty() ? std::string() : inputs[0];
  const size_t scheme_end = input.find("://");
  if (inputs.size() != 1 || scheme_end == std::string::npos || !SqlEngineForScheme(input.substr(0, scheme_end)))
    return Status::UsageError("--mode pushdown validates one database input (postgresql://, sqlite://, duckdb://)");
  return Status::OK();
}

Result<Report> RunPushdown(std::shared_ptr<const Plan> plan, const std::string& uri, const ReadOptions& read_options,
                           const RunOptions& options, bool split) {
  const auto start = std::chrono::steady_clock::now();
  ASSIGN_OR_RETURN(SqlTarget target, ParseSqlUri(uri));
  const std::string& context = target.display;
  if (target.table.empty() == read_options.query.empty())
    return Status::UsageError(context + ": name what to read with table= in the URI or with --query, one of them");
  const SqlDialect* dialect = FindSqlDialect(SqlEngineName(target.engine));
  ASSIGN_OR_RETURN(std::shared_ptr<AdbcConnectionHandle> connection, ConnectSql(target, SqlAccess::kReadOnly));
  // One transaction for every query, so that they all see the same rows.
  RETURN_IF_ERROR(connection->SetOption("adbc.connection.autocommit", "false", context));
  if (target.engine == SqlEngine::kPostgresql) RETURN_IF_ERROR(BeginRepeatableRead(connection, context));
  PushdownSource source;
  source.from = read_options.query.empty() ? QuotedTableName(target) : "(" + read_options.query + ") AS griffin_query";
  // The filter as SQL Griffin writes, and an increment's bounds (sql_increment.h),
  // their values bound to every query: every query reads the increment's rows.
  ASSIGN_OR_RETURN(SqlCondition condition, RowCondition(target.engine, read_options, context));
  if (!read_options.where.empty()) {
    ASSIGN_OR_RETURN(std::vector<std::string> names, SourceColumnNames(connection, source.from, context));
    RETURN_IF_ERROR(CheckWhereColumns(read_options.where, names, target.engine, context));
  }
  const std::shared_ptr<arrow::RecordBatch> params = condition.params;
  source.where = condition.sql;
  source.null_values = read_options.null_values;
  ASSIGN_OR_RETURN(auto stored,
                   ProbeStoredTypes(connection, target.engine, *plan, source.from, source.where, context, params));
  source.columns = stored;
  ASSIGN_OR_RETURN(PushdownQuery query, CompilePushdown(*plan, *dialect, source, options.max_violations));
  if (query.any_fallback() && !split) {
    RunOptions engine_options = options;
    engine_options.on_rows = nullptr;
    ASSIGN_OR_RETURN(Report report, RunWholeScan(connection, target, plan, query, *dialect, source, read_options,
                                                 engine_options, condition));
    report.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return report;
  }
  ASSIGN_OR_RETURN(auto aggregate_batches, QueryAll(connection, query.aggregate_sql, context, params));
  ASSIGN_OR_RETURN(AggregateRow aggregate, ReadAggregateRow(*plan, query, aggregate_batches, context));

  // From here on rows are numbered by `_griffin_row` windows, which must see
  // the rows in one process in scan order: no parallel plans (the aggregate
  // above, which only counts, may use them).
  if (target.engine == SqlEngine::kPostgresql)
    RETURN_IF_ERROR(ExecuteSql(connection, "SET LOCAL max_parallel_workers_per_gather = 0", context));
  // Samples of the pushed checks that have violations.
  auto string_nulls = std::make_shared<const NullMatcher>(read_options.null_values);
  std::vector<std::pair<int, ViolationReport>> violations;  // (check index, violation)
  for (const CheckPlacement& placement : query.placements) {
    if (!NeedsSample(placement, aggregate, options.max_violations)) continue;
    ASSIGN_OR_RETURN(auto sample, QueryAll(connection, placement.sample_sql, context, params));
    RETURN_IF_ERROR(ReadSample(*plan, placement, sample, options.max_violations, string_nulls, context, &violations));
  }

  Report fallback;
  std::shared_ptr<const Plan> fallback_plan;
  if (query.any_fallback()) {
    RunOptions engine_options = options;
    engine_options.on_rows = nullptr;
    ASSIGN_OR_RETURN(fallback, RunFallback(connection, target.engine, *plan, query, stored, read_options,
                                           engine_options, context, params, &fallback_plan));
  }
  ASSIGN_OR_RETURN(Report report, AssemblePushdownReport(*plan, query, *dialect, aggregate, std::move(violations),
                                                         fallback_plan ? &fallback : nullptr, fallback_plan.get(),
                                                         options.max_violations, context));
  report.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace griffin::sql
