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
                           std::shared_ptr<const Plan>* fallback_plan) {
  const RuleSet rules = FallbackRules(plan, query, stored);
  ASSIGN_OR_RETURN(*fallback_plan, Plan::Compile(rules, plan.now_micros()));
  ASSIGN_OR_RETURN(auto source, OpenSqlQuerySource(connection, engine, query.fallback_sql, context, read_options, 0));
  return RunValidation(*fallback_plan, *source, options);
}

}  // namespace

Result<bool> ChoosePushdown(const std::string& mode, const RuleSet& rules) {
  const std::string& chosen = mode.empty() ? rules.source.mode : mode;
  if (!chosen.empty() && chosen != "scan" && chosen != "pushdown")
    return Status::UsageError("--mode: expected scan or pushdown, got '" + chosen + "'");
  return chosen == "pushdown";
}

Status CheckPushdownInputs(const std::vector<std::string>& inputs, const RuleSet& rules) {
  const std::string& input = inputs.empty() ? std::string() : inputs[0];
  const size_t scheme_end = input.find("://");
  if (inputs.size() != 1 || scheme_end == std::string::npos || !SqlEngineForScheme(input.substr(0, scheme_end)))
    return Status::UsageError("--mode pushdown validates one database input (postgresql://, sqlite://, duckdb://)");
  if (!rules.source.incremental_column.empty())
    return Status::UsageError("--mode pushdown reads the whole table: source.incremental needs --mode scan");
  return Status::OK();
}

Result<Report> RunPushdown(std::shared_ptr<const Plan> plan, const std::string& uri, const ReadOptions& read_options,
                           const RunOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  ASSIGN_OR_RETURN(SqlTarget target, ParseSqlUri(uri));
  const std::string& context = target.display;
  if (target.table.empty() == read_options.query.empty())
    return Status::UsageError(context + ": name what to read with table= in the URI or with --query, one of them");
  const SqlDialect* dialect = FindSqlDialect(SqlEngineName(target.engine));
  ASSIGN_OR_RETURN(std::shared_ptr<AdbcConnectionHandle> connection, ConnectSql(target, SqlAccess::kReadOnly));
  // One transaction for every query, so that they all see the same rows.
  RETURN_IF_ERROR(connection->SetOption("adbc.connection.autocommit", "false", context));
  if (target.engine == SqlEngine::kPostgresql) {
    ASSIGN_OR_RETURN(auto isolation, AdbcStatementHandle::Open(
                                         connection, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", context));
    RETURN_IF_ERROR(isolation->ExecuteUpdate(context));
  }
  PushdownSource source;
  source.from = read_options.query.empty() ? QuotedTableName(target) : "(" + read_options.query + ") AS griffin_query";
  source.where = read_options.where;
  source.null_values = read_options.null_values;
  ASSIGN_OR_RETURN(auto stored, ProbeStoredTypes(connection, target.engine, *plan, source.from, source.where, context));
  source.columns = stored;
  ASSIGN_OR_RETURN(PushdownQuery query, CompilePushdown(*plan, *dialect, source, options.max_violations));
  ASSIGN_OR_RETURN(auto aggregate_batches, QueryAll(connection, query.aggregate_sql, context));
  ASSIGN_OR_RETURN(AggregateRow aggregate, ReadAggregateRow(*plan, query, aggregate_batches, context));

  // Samples of the pushed checks that have violations.
  auto string_nulls = std::make_shared<const NullMatcher>(read_options.null_values);
  std::vector<std::pair<int, ViolationReport>> violations;  // (check index, violation)
  for (const CheckPlacement& placement : query.placements) {
    if (!NeedsSample(placement, aggregate, options.max_violations)) continue;
    ASSIGN_OR_RETURN(auto sample, QueryAll(connection, placement.sample_sql, context));
    RETURN_IF_ERROR(ReadSample(*plan, placement, sample, options.max_violations, string_nulls, context, &violations));
  }

  Report fallback;
  std::shared_ptr<const Plan> fallback_plan;
  if (query.any_fallback()) {
    RunOptions engine_options = options;
    engine_options.on_rows = nullptr;
    ASSIGN_OR_RETURN(fallback, RunFallback(connection, target.engine, *plan, query, stored, read_options,
                                           engine_options, context, &fallback_plan));
  }
  ASSIGN_OR_RETURN(Report report, AssemblePushdownReport(*plan, query, *dialect, aggregate, std::move(violations),
                                                         fallback_plan ? &fallback : nullptr, fallback_plan.get(),
                                                         options.max_violations, context));
  report.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace griffin::sql
