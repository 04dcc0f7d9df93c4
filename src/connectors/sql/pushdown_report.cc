#include "connectors/sql/pushdown_report.h"

#include <algorithm>
#include <climits>
#include <cmath>

#include "connectors/sql/sql_query.h"
#include "exec/check_report.h"
#include "exec/violation_messages.h"
#include "io/arrow_source.h"

namespace griffin::sql {
namespace {

bool SameLocation(const SourceLocation& a, const SourceLocation& b) { return !(a < b) && !(b < a); }

// A pushed table check's observation, as the merger's column metrics give it.
TableObservation Observe(const Plan& plan, const TablePlan& table, const AggregateRow& row) {
  const int c = table.check_index;
  TableObservation observed;
  if (table.column_slot >= 0) observed.type = plan.columns()[table.column_slot].type;
  switch (table.rule->metric) {
    case TableMetric::kRowCount: observed.int_value = row.rows; break;
    case TableMetric::kNullFraction:
      if (row.rows > 0) observed.value = static_cast<double>(row.rows - row.non_null[c]) / static_cast<double>(row.rows);
      break;
    case TableMetric::kDistinctCount: observed.int_value = row.distinct[c]; break;
    case TableMetric::kSum: observed.value = static_cast<double>(row.sum[c].value_or(0)); break;
    case TableMetric::kMean:
      if (row.non_null[c] > 0)
        observed.value = static_cast<double>(static_cast<long double>(row.sum[c].value_or(0)) / row.non_null[c]);
      break;
    case TableMetric::kMin: case TableMetric::kMax: {
      const bool is_min = table.rule->metric == TableMetric::kMin;
      if (observed.type == ValueType::kFloat64) {
        observed.value = row.nan_count[c] > 0 ? std::optional<double>(std::nan("")) :
                         is_min ? row.min_float[c] : row.max_float[c];
      } else {
        const auto& value = is_min ? row.min_int[c] : row.max_int[c];
        if (value) observed.int_value = static_cast<int64_t>(*value);
      }
      break;
    }
    default: break;
  }
  return observed;
}

const CompiledColumnCheck* ColumnCheckOf(const Plan& plan, int check_index) {
  for (const ColumnPlan& column : plan.columns())
    for (const CompiledColumnCheck& check : column.checks)
      if (check.check_index == check_index) return &check;
  return nullptr;
}

std::string PushedReason(const SqlDialect& dialect) {
  return std::string("compiled to ") + dialect.name() + " SQL with the engine's semantics";
}

}  // namespace

Result<AggregateRow> ReadAggregateRow(const Plan& plan, const PushdownQuery& query,
                                      const std::vector<std::shared_ptr<arrow::RecordBatch>>& batches,
                                      const std::string& context) {
  const arrow::RecordBatch* row = nullptr;
  for (const auto& batch : batches)
    if (batch->num_rows() > 0) row = batch.get();
  if (!row || row->num_columns() != static_cast<int>(query.outputs.size()))
    return Status::InputError(context + ": the aggregate query gave no row of " +
                              std::to_string(query.outputs.size()) + " columns");
  const size_t checks = plan.checks().size();
  AggregateRow out;
  out.evaluated.assign(checks, 0);
  out.violations.assign(checks, 0);
  out.non_null.assign(checks, 0);
  out.distinct.assign(checks, 0);
  out.nan_count.assign(checks, 0);
  out.sum.resize(checks);
  out.min_int.resize(checks);
  out.max_int.resize(checks);
  out.min_float.resize(checks);
  out.max_float.resize(checks);
  for (size_t i = 0; i < query.outputs.size(); ++i) {
    const AggregateOutput& output = query.outputs[i];
    const arrow::Array& cell = *row->column(static_cast<int>(i));
    const int c = output.check_index;
    using Kind = AggregateOutput::Kind;
    if (output.kind == Kind::kMin || output.kind == Kind::kMax) {
      const ValueType type = plan.columns()[plan.FindColumn(*plan.checks()[c].column)].type;
      if (type == ValueType::kFloat64) {
        ASSIGN_OR_RETURN(auto value, DoubleCell(cell, 0, context));
        (output.kind == Kind::kMin ? out.min_float : out.max_float)[c] = value;
      } else {
        ASSIGN_OR_RETURN(auto value, IntegerCell(cell, 0, context));
        (output.kind == Kind::kMin ? out.min_int : out.max_int)[c] = value;
      }
      continue;
    }
    ASSIGN_OR_RETURN(std::optional<__int128> value, IntegerCell(cell, 0, context));
    if (output.kind == Kind::kIntegerSumText) {
      out.sum[c] = value;
      continue;
    }
    const int64_t count = value ? static_cast<int64_t>(*value) : 0;
    switch (output.kind) {
      case Kind::kRows: out.rows = count; break;
      case Kind::kBadRows: out.bad_rows = count; break;
      case Kind::kEvaluated: out.evaluated[c] = count; break;
      case Kind::kViolations: out.violations[c] = count; break;
      case Kind::kNonNull: out.non_null[c] = count; break;
      case Kind::kDistinct: out.distinct[c] = count; break;
      case Kind::kNanCount: out.nan_count[c] = count; break;
      default: break;
    }
  }
  return out;
}

bool NeedsSample(const CheckPlacement& placement, const AggregateRow& row, int64_t max_violations) {
  return placement.pushed && !placement.sample_sql.empty() && max_violations > 0 &&
         row.violations[placement.check_index] > 0;
}

Status ReadSample(const Plan& plan, const CheckPlacement& placement,
                  const std::vector<std::shared_ptr<arrow::RecordBatch>>& batches, int64_t max_violations,
                  const std::shared_ptr<const NullMatcher>& string_nulls, const std::string& context,
                  std::vector<std::pair<int, ViolationReport>>* violations) {
  const int index = placement.check_index;
  const CheckInfo& info = plan.checks()[index];
  const CompiledColumnCheck* column_check = ColumnCheckOf(plan, index);
  const int value_column = column_check ? (placement.unique ? 2 : 1) : -1;
  int64_t listed = 0;
  for (const auto& record_batch : batches) {
    std::shared_ptr<Batch> batch = BatchFromRecordBatch(record_batch, 0, string_nulls);
    for (int64_t r = 0; r < record_batch->num_rows() && listed < max_violations; ++r, ++listed) {
      ASSIGN_OR_RETURN(auto row, IntegerCell(*record_batch->column(0), r, context));
      std::optional<__int128> first;
      if (placement.unique) {
        ASSIGN_OR_RETURN(first, IntegerCell(*record_batch->column(1), r, context));
      }
      const ValueView value = value_column >= 0 ? ViewValue(*batch, value_column, r) : ValueView::Null();
      ViolationReport violation;
      violation.row = static_cast<int64_t>(row.value_or(0));
      violation.column = info.column;
      violation.check = info.name;
      violation.value = ReportValue(value);
      violation.message = ViolationMessage(plan, index, column_check, value, violation.row,
                                           first ? static_cast<int64_t>(*first) : -1);
      violations->emplace_back(index, std::move(violation));
    }
  }
  return Status::OK();
}

RuleSet FallbackRules(const Plan& plan, const PushdownQuery& query, const std::map<std::string, StoredType>& stored) {
  std::vector<SourceLocation> kept;
  for (const CheckPlacement& placement : query.placements)
    if (!placement.pushed) kept.push_back(plan.checks()[placement.check_index].location);
  auto is_kept = [&](const SourceLocation& at) {
    return std::any_of(kept.begin(), kept.end(), [&](const SourceLocation& k) { return SameLocation(k, at); });
  };
  RuleSet rules = plan.rules();
  std::vector<ColumnRule> columns;
  for (ColumnRule column : rules.columns) {
    std::vector<ColumnCheck> checks;
    for (const ColumnCheck& check : column.checks)
      if (is_kept(check.location)) checks.push_back(check);
    column.checks = std::move(checks);
    if (column.drift && !is_kept(column.drift->location)) column.drift.reset();
    // A column a fallback check reads keeps its declaration (its type); one
    // the source lacks stays too: the engine reports it as scan mode does.
    const bool read = std::find(query.fallback_columns.begin(), query.fallback_columns.end(), column.name) !=
                      query.fallback_columns.end();
    if (read || !column.checks.empty() || column.drift || !stored.count(column.name))
      columns.push_back(std::move(column));
  }
  rules.columns = std::move(columns);
  rules.rows.erase(std::remove_if(rules.rows.begin(), rules.rows.end(),
                                  [&](const RowCheck& row) { return !is_kept(row.location); }),
                   rules.rows.end());
  rules.table.erase(std::remove_if(rules.table.begin(), rules.table.end(),
                                   [&](const TableCheck& table) { return !is_kept(table.location); }),
                    rules.table.end());
  if (query.fallback_has_pushed_bad) {
    ColumnRule bad;
    bad.name = kPushedBadColumn;
    bad.type = ValueType::kInt64;
    bad.location = {INT_MAX, 0};
    ColumnCheck max;
    max.kind = ColumnCheckKind::kMax;
    max.bound.kind = Literal::Kind::kInt;
    max.bound.text = "0";
    max.location = {INT_MAX, 1};
    bad.checks.push_back(max);
    rules.columns.push_back(std::move(bad));
  }
  return rules;
}

Result<Report> AssemblePushdownReport(const Plan& plan, const PushdownQuery& query, const SqlDialect& dialect,
                                      const AggregateRow& row, std::vector<std::pair<int, ViolationReport>> violations,
                                      const Report* fallback_run, const Plan* fallback_plan, int64_t max_violations,
                                      const std::string& context) {
  const Report empty;
  const Report& fallback = fallback_run ? *fallback_run : empty;
  std::vector<int> fallback_index(plan.checks().size(), -1);  // full check -> fallback report check
  if (query.any_fallback()) {
    if (!fallback_run || !fallback_plan) return Status::Internal("pushdown: checks fall back but the engine did not run");
    if (fallback.rows != row.rows)
      return Status::InputError(context + ": the aggregate counted " + std::to_string(row.rows) +
                                " rows, the engine's scan " + std::to_string(fallback.rows));
    std::map<std::string, int> full_by_name;
    for (size_t f = 0; f < fallback_plan->checks().size(); ++f) {
      for (size_t c = 0; c < plan.checks().size(); ++c) {
        if (!SameLocation(fallback_plan->checks()[f].location, plan.checks()[c].location)) continue;
        fallback_index[c] = static_cast<int>(f);
        // Violations name their check; a table check may bear a column check's name ("x.min").
        if (fallback_plan->checks()[f].scope != CheckScope::kTable)
          full_by_name[fallback_plan->checks()[f].name] = static_cast<int>(c);
      }
    }
    for (const ViolationReport& violation : fallback.violations) {
      auto found = full_by_name.find(violation.check);
      if (found != full_by_name.end()) violations.emplace_back(found->second, violation);
    }
  }

  Report report;
  report.griffin_version = GRIFFIN_VERSION;
  report.dataset = plan.rules().dataset;
  report.rules_sha256 = plan.rules().sha256;
  report.rows = row.rows;
  report.schema_errors = fallback.schema_errors;
  const bool schema_failed = !report.schema_errors.empty();
  report.bad_rows = schema_failed ? report.rows : row.bad_rows ? *row.bad_rows : fallback.bad_rows;
  report.quality_score = schema_failed ? 0.0
                         : report.rows == 0
                             ? 1.0
                             : static_cast<double>(report.rows - report.bad_rows) / static_cast<double>(report.rows);
  report.score_min = plan.rules().score_min;
  bool passed = !schema_failed;
  std::vector<const TablePlan*> table_by_check(plan.checks().size(), nullptr);
  for (const TablePlan& table : plan.table()) table_by_check[table.check_index] = &table;
  for (const CheckPlacement& placement : query.placements) {
    const int c = placement.check_index;
    const CheckInfo& info = plan.checks()[c];
    CheckReport check;
    if (!placement.pushed) {
      if (fallback_index[c] < 0 || fallback_index[c] >= static_cast<int>(fallback.checks.size()))
        return Status::Internal("pushdown: the engine's run has no report of check " + info.name);
      check = fallback.checks[fallback_index[c]];
      check.ran_in = "engine";
      check.ran_in_reason = placement.reason.empty() ? "judged against history after the run" : placement.reason;
    } else {
      check = table_by_check[c] ? JudgeTableCheck(plan, *table_by_check[c], Observe(plan, *table_by_check[c], row))
                                : CountedCheckReport(info, row.evaluated[c], row.violations[c]);
      check.ran_in = "database";
      check.ran_in_reason = PushedReason(dialect);
    }
    if (info.options.severity == Severity::kError && !check.passed) passed = false;
    report.checks.push_back(std::move(check));
  }
  for (const CheckReport& check : report.checks)
    if (!check.is_table && check.violations > max_violations) report.violations_truncated = true;
  if (report.score_min && report.quality_score < *report.score_min) passed = false;
  report.passed = passed;
  // In the engine's order: by row, then by check.
  std::stable_sort(violations.begin(), violations.end(), [](const auto& a, const auto& b) {
    return a.second.row != b.second.row ? a.second.row < b.second.row : a.first < b.first;
  });
  for (auto& [index, violation] : violations) report.violations.push_back(std::move(violation));
  report.column_summaries = fallback.column_summaries;
  report.profile = fallback.profile;
  report.input_rows = {report.rows};
  report.threads = query.any_fallback() ? fallback.threads : 1;
  report.input_bytes = fallback.input_bytes;
  return report;
}

}  // namespace griffin::sql
