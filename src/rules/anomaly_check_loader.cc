#include "rules/anomaly_check_loader.h"

#include <algorithm>
#include <optional>
#include <string>

namespace griffin::rules_internal {
namespace {

// The longest z_score window: the store is asked for this many runs at most.
constexpr int64_t kMaxWindow = 10000;
// min_history when not given: fewer values make a poor estimate of a spread.
constexpr int64_t kDefaultMinHistory = 5;
constexpr int64_t kMaxSeason = 1000;

constexpr AnomalyMetric kRunMetrics[] = {AnomalyMetric::kRowCount, AnomalyMetric::kBadRows,
                                         AnomalyMetric::kQualityScore};
constexpr AnomalyMetric kColumnMetrics[] = {AnomalyMetric::kNullCount,     AnomalyMetric::kNullFraction,
                                            AnomalyMetric::kDistinctCount, AnomalyMetric::kMean,
                                            AnomalyMetric::kStddev,        AnomalyMetric::kMin,
                                            AnomalyMetric::kMax};

const char* kKnownMetrics =
    "row_count, bad_rows, quality_score, or COLUMN.null_count, COLUMN.null_fraction, COLUMN.distinct_count, "
    "COLUMN.mean, COLUMN.stddev, COLUMN.min, COLUMN.max";

Status ParseMetric(const YamlContext& ctx, const Field& field, const std::vector<ColumnRule>& columns,
                   AnomalyCheck* check) {
  ASSIGN_OR_RETURN(check->metric_text, ReadString(ctx, field));
  const std::string& text = check->metric_text;
  for (AnomalyMetric metric : kRunMetrics) {
    if (text == AnomalyMetricName(metric)) {
      check->metric = metric;
      return Status::OK();
    }
  }
  const size_t dot = text.rfind('.');
  std::optional<AnomalyMetric> found;
  if (dot != std::string::npos && dot > 0) {
    for (AnomalyMetric metric : kColumnMetrics)
      if (text.compare(dot + 1, std::string::npos, AnomalyMetricName(metric)) == 0) found = metric;
  }
  if (!found) return ctx.Error(field, "unknown metric '" + text + "' (expected " + kKnownMetrics + ")");
  const std::string name = text.substr(0, dot);
  const ColumnRule* column = nullptr;
  for (const ColumnRule& declared : columns)
    if (declared.name == name) column = &declared;
  if (column == nullptr) return ctx.Error(field, "column '" + name + "' is not declared in columns:");
  const bool numeric = column->type == ValueType::kInt64 || column->type == ValueType::kFloat64;
  const bool needs_numbers = *found == AnomalyMetric::kMean || *found == AnomalyMetric::kStddev ||
                             *found == AnomalyMetric::kMin || *found == AnomalyMetric::kMax;
  if (needs_numbers && !numeric) {
    return ctx.Error(field, std::string(AnomalyMetricName(*found)) + " applies only to int64 and float64 columns; " +
                                name + " is " + ValueTypeName(column->type));
  }
  check->metric = *found;
  check->column = name;
  return Status::OK();
}

Status LoadChange(const YamlContext& ctx, const Field& field, AnomalyCheck* check) {
  ASSIGN_OR_RETURN(std::vector<Field> entries, MapFields(ctx, field, "a map like {max_increase: 0.5, max_decrease: 0.3}"));
  const double kLargest = 1e300;
  for (const Field& entry : entries) {
    if (entry.key == "max_increase") {
      ASSIGN_OR_RETURN(check->max_increase, ReadNumberInRange(ctx, entry, 0.0, kLargest));
    } else if (entry.key == "max_decrease") {
      // A relative decrease beyond 1 (100%) could never happen.
      const double high = check->strategy == AnomalyCheck::Strategy::kRelativeChange ? 1.0 : kLargest;
      ASSIGN_OR_RETURN(check->max_decrease, ReadNumberInRange(ctx, entry, 0.0, high));
    } else {
      return UnknownKey(ctx, entry, {"max_increase", "max_decrease"});
    }
  }
  if (!check->max_increase && !check->max_decrease) return ctx.Error(field, "needs max_increase or max_decrease");
  return Status::OK();
}

Status LoadZScore(const YamlContext& ctx, const Field& field, AnomalyCheck* check) {
  ASSIGN_OR_RETURN(std::vector<Field> entries, MapFields(ctx, field, "a map like {max: 3, window: 30}"));
  std::optional<int64_t> min_history;
  bool has_max = false;
  for (const Field& entry : entries) {
    if (entry.key == "max") {
      ASSIGN_OR_RETURN(check->max_z, ReadNumberInRange(ctx, entry, 0.0, 1e6));
      if (check->max_z <= 0) return ctx.Error(entry, "must be greater than 0");
      has_max = true;
    } else if (entry.key == "window") {
      ASSIGN_OR_RETURN(check->window, ReadWholeNumber(ctx, entry, 2, kMaxWindow));
    } else if (entry.key == "min_history") {
      ASSIGN_OR_RETURN(min_history, ReadWholeNumber(ctx, entry, 2, kMaxWindow));
    } else {
      return UnknownKey(ctx, entry, {"max", "window", "min_history"});
    }
  }
  if (!has_max) return ctx.Error(field, "needs max (how many standard deviations from the mean pass)");
  check->min_history = min_history.value_or(std::min(check->window, kDefaultMinHistory));
  if (check->min_history > check->window) {
    return ctx.Error(field, "min_history (" + std::to_string(check->min_history) + ") cannot exceed window (" +
                                std::to_string(check->window) + ")");
  }
  return Status::OK();
}

}  // namespace

Result<AnomalyCheck> LoadAnomalyCheck(const YamlContext& ctx, const Field& field,
                                      const std::vector<ColumnRule>& columns) {
  AnomalyCheck check;
  check.location = field.key_location;
  ASSIGN_OR_RETURN(std::vector<Field> entries,
                   MapFields(ctx, field, "a map like {metric: row_count, relative_change: {max_increase: 0.5}}"));
  std::optional<Field> metric, strategy;
  for (const Field& entry : entries) {
    if (entry.key == "metric") {
      metric = entry;
    } else if (entry.key == "relative_change" || entry.key == "absolute_change" || entry.key == "z_score") {
      if (strategy) {
        return ctx.Error(entry, "one strategy per anomaly check (" + strategy->key + " is given already)");
      }
      strategy = entry;
    } else if (entry.key == "season") {
      ASSIGN_OR_RETURN(check.season, ReadWholeNumber(ctx, entry, 1, kMaxSeason));
    } else if (entry.key == "mostly") {
      return ctx.Error(entry.key_location.line, entry.path,
                       "mostly does not apply to anomaly checks (they judge one value)");
    } else {
      ASSIGN_OR_RETURN(bool is_option, ReadCheckOption(ctx, entry, false, &check.options));
      if (!is_option) {
        return UnknownKey(ctx, entry, {"metric", "relative_change", "absolute_change", "z_score", "season",
                                       "severity", "message"});
      }
    }
  }
  if (!metric) return ctx.Error(field, std::string("needs a metric (") + kKnownMetrics + ")");
  RETURN_IF_ERROR(ParseMetric(ctx, *metric, columns, &check));
  if (!strategy) return ctx.Error(field, "needs a strategy: relative_change, absolute_change or z_score");
  if (strategy->key == "z_score") {
    check.strategy = AnomalyCheck::Strategy::kZScore;
    RETURN_IF_ERROR(LoadZScore(ctx, *strategy, &check));
  } else {
    check.strategy = strategy->key == "relative_change" ? AnomalyCheck::Strategy::kRelativeChange
                                                        : AnomalyCheck::Strategy::kAbsoluteChange;
    RETURN_IF_ERROR(LoadChange(ctx, *strategy, &check));
  }
  return check;
}

}  // namespace griffin::rules_internal
