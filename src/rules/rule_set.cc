#include "rules/rule_set.h"

namespace griffin {

const char* SeverityName(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarn: return "warn";
  }
  return "?";
}

const char* ColumnCheckKindName(ColumnCheckKind k) {
  switch (k) {
    case ColumnCheckKind::kNotNull: return "not_null";
    case ColumnCheckKind::kType: return "type";
    case ColumnCheckKind::kUnique: return "unique";
    case ColumnCheckKind::kMin: return "min";
    case ColumnCheckKind::kMax: return "max";
    case ColumnCheckKind::kGt: return "gt";
    case ColumnCheckKind::kLt: return "lt";
    case ColumnCheckKind::kFinite: return "finite";
    case ColumnCheckKind::kRegex: return "regex";
    case ColumnCheckKind::kContains: return "contains";
    case ColumnCheckKind::kIn: return "in";
    case ColumnCheckKind::kNotIn: return "not_in";
    case ColumnCheckKind::kLength: return "length";
  }
  return "?";
}

const char* TableMetricName(TableMetric m) {
  switch (m) {
    case TableMetric::kRowCount: return "row_count";
    case TableMetric::kNullFraction: return "null_fraction";
    case TableMetric::kDistinctCount: return "distinct_count";
    case TableMetric::kMean: return "mean";
    case TableMetric::kStddev: return "stddev";
    case TableMetric::kSum: return "sum";
    case TableMetric::kMin: return "min";
    case TableMetric::kMax: return "max";
    case TableMetric::kQuantile: return "quantile";
  }
  return "?";
}

const char* AnomalyMetricName(AnomalyMetric m) {
  switch (m) {
    case AnomalyMetric::kRowCount: return "row_count";
    case AnomalyMetric::kBadRows: return "bad_rows";
    case AnomalyMetric::kQualityScore: return "quality_score";
    case AnomalyMetric::kNullCount: return "null_count";
    case AnomalyMetric::kNullFraction: return "null_fraction";
    case AnomalyMetric::kDistinctCount: return "distinct_count";
    case AnomalyMetric::kMean: return "mean";
    case AnomalyMetric::kStddev: return "stddev";
    case AnomalyMetric::kMin: return "min";
    case AnomalyMetric::kMax: return "max";
  }
  return "?";
}

bool IsColumnAnomalyMetric(AnomalyMetric m) {
  return m != AnomalyMetric::kRowCount && m != AnomalyMetric::kBadRows && m != AnomalyMetric::kQualityScore;
}

std::string AnomalyCheck::CheckName() const {
  return (column ? std::string() : std::string("table.")) + metric_text + ".anomaly";
}

const char* TelemetryCheckKindName(TelemetryCheckKind k) {
  switch (k) {
    case TelemetryCheckKind::kRequired: return "required";
    case TelemetryCheckKind::kFinite: return "finite";
    case TelemetryCheckKind::kMin: return "min";
    case TelemetryCheckKind::kMax: return "max";
    case TelemetryCheckKind::kSpike: return "spike";
  }
  return "?";
}

std::string TelemetrySeries::CheckName(const TelemetryCheck& check) const {
  return (is_loss ? std::string("loss.") : "metrics." + name + ".") + TelemetryCheckKindName(check.kind);
}

}  // namespace griffin
