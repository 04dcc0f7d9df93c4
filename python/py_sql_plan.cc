#include "py_sql_plan.h"

namespace griffin::python {
namespace {

Result<sql::StoredType> StoredKind(const std::string& kind) {
  using sql::StoredType;
  static const std::map<std::string, StoredType> kinds = {
      {"text", StoredType::kText}, {"integer", StoredType::kInteger}, {"double", StoredType::kDouble},
      {"bool", StoredType::kBool}, {"date", StoredType::kDate},       {"timestamp", StoredType::kTimestamp},
      {"other", StoredType::kOther}};
  auto found = kinds.find(kind);
  if (found == kinds.end())
    return Status::UsageError("stored type '" + kind + "': expected text, integer, double, bool, date, timestamp or other");
  return found->second;
}

}  // namespace

Result<std::shared_ptr<const SqlPlan>> SqlPlan::Compile(std::shared_ptr<const Validator> validator,
                                                        const std::string& dialect, const std::string& from,
                                                        const std::map<std::string, std::string>& stored,
                                                        int64_t max_violations, bool windowless_fallback) {
  auto plan = std::make_shared<SqlPlan>();
  plan->dialect_ = sql::FindSqlDialect(dialect);
  if (!plan->dialect_)
    return Status::UsageError("dialect '" + dialect + "': expected one of " + sql::SqlDialectNames());
  std::map<std::string, sql::StoredType> columns;
  for (const auto& [name, kind] : stored) {
    ASSIGN_OR_RETURN(columns[name], StoredKind(kind));
  }
  sql::PushdownSource source;
  source.from = from;
  source.columns = columns;
  source.null_values = validator->rules().source.null_values;
  source.windowless_fallback = windowless_fallback;
  ASSIGN_OR_RETURN(plan->query_, sql::CompilePushdown(validator->plan(), *plan->dialect_, source, max_violations));
  if (plan->query_.any_fallback()) {
    ASSIGN_OR_RETURN(plan->fallback_,
                     Validator::FromRules(sql::FallbackRules(validator->plan(), plan->query_, columns)));
  }
  plan->validator_ = std::move(validator);
  plan->max_violations_ = max_violations;
  plan->context_ = std::string(dialect) + " SQL over " + from;
  return std::shared_ptr<const SqlPlan>(std::move(plan));
}

Result<std::vector<int>> SqlPlan::SampleChecks(const Batches& aggregate) const {
  ASSIGN_OR_RETURN(sql::AggregateRow row, sql::ReadAggregateRow(plan(), query_, aggregate, context_));
  std::vector<int> checks;
  for (const sql::CheckPlacement& placement : query_.placements)
    if (sql::NeedsSample(placement, row, max_violations_)) checks.push_back(placement.check_index);
  return checks;
}

Result<Report> SqlPlan::Assemble(const Batches& aggregate, const std::vector<std::pair<int, Batches>>& samples,
                                 const Report* fallback_report) const {
  ASSIGN_OR_RETURN(sql::AggregateRow row, sql::ReadAggregateRow(plan(), query_, aggregate, context_));
  auto string_nulls = std::make_shared<const NullMatcher>(validator_->rules().source.null_values);
  std::vector<std::pair<int, ViolationReport>> violations;
  for (const auto& [index, batches] : samples) {
    if (index < 0 || index >= static_cast<int>(query_.placements.size()))
      return Status::UsageError("sample of check " + std::to_string(index) + ": no such check");
    RETURN_IF_ERROR(sql::ReadSample(plan(), query_.placements[index], batches, max_violations_, string_nulls,
                                    context_, &violations));
  }
  if (query_.any_fallback() && !fallback_report)
    return Status::UsageError(context_ + ": checks fall back to the engine, and its report is missing");
  return sql::AssemblePushdownReport(plan(), query_, *dialect_, row, std::move(violations),
                                     query_.any_fallback() ? fallback_report : nullptr,
                                     fallback_ ? &fallback_->plan() : nullptr, max_violations_, context_);
}

}  // namespace griffin::python
