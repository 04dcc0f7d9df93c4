#include "exec/check_report.h"

#include <cmath>

#include "report/json_writer.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

// A table-check bound in the units of the observed value: days for date
// columns, microseconds for timestamp columns, the number itself otherwise.
long double BoundInColumnUnits(const Literal& literal, ValueType type, int64_t now_micros) {
  constexpr long double kMicrosPerDay = 86400000000.0L;
  switch (literal.kind) {
    case Literal::Kind::kFloat: return literal.float_value;
    case Literal::Kind::kDate:
      return type == ValueType::kTimestamp ? literal.int_value * kMicrosPerDay : literal.int_value;
    case Literal::Kind::kTimestamp:
      return type == ValueType::kDate ? literal.int_value / kMicrosPerDay : literal.int_value;
    case Literal::Kind::kNow:
      return type == ValueType::kDate ? now_micros / kMicrosPerDay : now_micros;
    default: return static_cast<long double>(literal.int_value);
  }
}

JsonScalar LiteralAsJson(const Literal& literal) {
  switch (literal.kind) {
    case Literal::Kind::kInt: return JsonScalar::Integer(literal.int_value);
    case Literal::Kind::kFloat: return JsonScalar::Number(literal.float_value);
    case Literal::Kind::kNow: return JsonScalar::String("now");
    default: return JsonScalar::String(literal.text);
  }
}

// A table-kind check's report before its observation: names and severity.
CheckReport TableKindReport(const CheckInfo& info) {
  CheckReport check;
  check.name = info.name;
  check.column = info.column;
  check.check = info.check;
  check.severity = SeverityName(info.options.severity);
  check.is_table = true;
  return check;
}

}  // namespace

CheckReport JudgeTableCheck(const Plan& plan, const TablePlan& table, const TableObservation& observation) {
  const TableCheck& rule = *table.rule;
  const CheckInfo& info = plan.checks()[table.check_index];
  CheckReport report = TableKindReport(info);
  if (rule.min) report.min_bound = LiteralAsJson(*rule.min);
  if (rule.max) report.max_bound = LiteralAsJson(*rule.max);
  // Compare with the bounds (an absent or NaN observation fails any bound).
  bool has_value = observation.int_value.has_value() || (observation.value && !std::isnan(*observation.value));
  long double value = observation.int_value ? static_cast<long double>(*observation.int_value)
                      : observation.value   ? static_cast<long double>(*observation.value)
                                            : 0;
  // Counts and fractions are plain numbers whatever the column's type.
  const bool in_column_units = rule.metric == TableMetric::kMin || rule.metric == TableMetric::kMax ||
                               rule.metric == TableMetric::kQuantile;
  const ValueType bound_type = in_column_units ? observation.type : ValueType::kFloat64;
  const int64_t now = plan.now_micros();
  bool passed = true;
  if (rule.min) passed = passed && has_value && value >= BoundInColumnUnits(*rule.min, bound_type, now);
  if (rule.max) passed = passed && has_value && value <= BoundInColumnUnits(*rule.max, bound_type, now);
  report.passed = passed;

  if (observation.int_value && (observation.type == ValueType::kDate || observation.type == ValueType::kTimestamp) &&
      rule.metric != TableMetric::kRowCount && rule.metric != TableMetric::kDistinctCount) {
    const int64_t at = *observation.int_value;
    std::string text = observation.type == ValueType::kDate ? FormatDate(at) : FormatTimestamp(at);
    report.observed = JsonScalar::String(text);
    report.observed_text = text;
  } else if (observation.int_value && observation.type == ValueType::kBool && rule.metric != TableMetric::kRowCount &&
             rule.metric != TableMetric::kDistinctCount) {
    report.observed = JsonScalar::Raw(*observation.int_value ? "true" : "false");
    report.observed_text = report.observed.text;
  } else if (observation.int_value) {
    report.observed = JsonScalar::Integer(*observation.int_value);
    report.observed_text = report.observed.text;
  } else if (observation.value) {
    report.observed = JsonScalar::Number(*observation.value);
    report.observed_text = FormatDouble(*observation.value);
  } else {
    report.observed_text = "null";
  }
  if (info.options.message) report.message = *info.options.message;
  return report;
}

CheckReport CountedCheckReport(const CheckInfo& info, int64_t evaluated, int64_t violations) {
  CheckReport check;
  check.name = info.name;
  check.column = info.column;
  check.check = info.check;
  check.severity = SeverityName(info.options.severity);
  check.evaluated = evaluated;
  check.violations = violations;
  check.pass_rate = evaluated == 0 ? 1.0 : static_cast<double>(evaluated - violations) / static_cast<double>(evaluated);
  check.mostly = info.options.mostly;
  check.passed = check.pass_rate >= check.mostly;
  if (info.options.message) check.message = *info.options.message;
  return check;
}

// A history check before history/history_checks.h judges it.
CheckReport NotEvaluatedHistoryReport(const CheckInfo& info) {
  CheckReport check = TableKindReport(info);
  check.observed_text = "null";
  check.passed = true;
  check.note = "not evaluated: " + info.check + " checks are judged against history or a baseline by griffin validate, griffin serve and Validator.validate";
  return check;
}

}  // namespace griffin
