#include "rules/table_rule_loader.h"

#include <optional>
#include <string>

#include "rules/anomaly_check_loader.h"
#include "rules/bound_ranges.h"
#include "rules/rule_literals.h"

namespace griffin::rules_internal {

namespace {

constexpr TableMetric kMetrics[] = {
    TableMetric::kRowCount, TableMetric::kNullFraction, TableMetric::kDistinctCount,
    TableMetric::kMean,     TableMetric::kStddev,       TableMetric::kSum,
    TableMetric::kMin,      TableMetric::kMax,          TableMetric::kQuantile};

std::optional<TableMetric> MetricFromKey(const std::string& key) {
  for (TableMetric metric : kMetrics) {
    if (key == TableMetricName(metric)) return metric;
  }
  return std::nullopt;
}

bool IsNumeric(ValueType type) { return type == ValueType::kInt64 || type == ValueType::kFloat64; }
bool IsTemporal(ValueType type) { return type == ValueType::kDate || type == ValueType::kTimestamp; }

// The error for a metric that does not fit its column's type, if it does not.
Status CheckMetricFits(const YamlContext& ctx, const Field& field, TableMetric metric,
                       const ColumnRule& column) {
  const std::string name = TableMetricName(metric);
  const std::string type = ValueTypeName(column.type);
  switch (metric) {
    case TableMetric::kMean:
    case TableMetric::kStddev:
    case TableMetric::kSum:
      if (!IsNumeric(column.type)) {
        return ctx.Error(field, name + " applies only to int64 and float64 columns; " +
                                    column.name + " is " + type);
      }
      break;
    case TableMetric::kMin:
    case TableMetric::kMax:
    case TableMetric::kQuantile:
      if (!IsNumeric(column.type) && !IsTemporal(column.type)) {
        return ctx.Error(field, name + " applies only to int64, float64, date and timestamp "
                                       "columns; " + column.name + " is " + type);
      }
      break;
    default:
      break;
  }
  return Status::OK();
}

Result<Literal> ParseMetricBound(const YamlContext& ctx, const Field& field, TableMetric metric,
                                 const ColumnRule* column) {
  switch (metric) {
    case TableMetric::kRowCount:
    case TableMetric::kDistinctCount:
      return ParseNumberBound(ctx, field, /*prefer_int=*/true);
    case TableMetric::kNullFraction:
    case TableMetric::kMean:
    case TableMetric::kStddev:
      return ParseNumberBound(ctx, field, /*prefer_int=*/false);
    default:
      break;
  }
  if (IsTemporal(column->type)) {
    return ParseBound(ctx, field, ColumnTypeInfo{column->type, column->timestamp_format});
  }
  return ParseNumberBound(ctx, field, /*prefer_int=*/column->type == ValueType::kInt64);
}

// The type of the metric's observed value, as far as its bounds are concerned:
// min, max and quantile observe a value of the column (nearest rank); every
// other metric is compared as a number.
ValueType ObservedType(TableMetric metric, const ColumnRule* column) {
  switch (metric) {
    case TableMetric::kMin:
    case TableMetric::kMax:
    case TableMetric::kQuantile:
      return column->type;
    default:
      return ValueType::kFloat64;
  }
}

Result<TableCheck> LoadTableCheck(const YamlContext& ctx, const Field& item,
                                  const std::vector<ColumnRule>& columns) {
  ASSIGN_OR_RETURN(std::vector<Field> items,
                   MapFields(ctx, item, "a metric, like {row_count: {min: 1}}"));
  if (items.size() != 1) {
    return ctx.Error(item, "expected one metric per item, like `- row_count: {min: 1}`");
  }
  const Field& metric_field = items[0];
  std::optional<TableMetric> metric = MetricFromKey(metric_field.key);
  if (!metric.has_value()) {
    return UnknownKey(ctx, metric_field,
                      {"row_count", "null_fraction", "distinct_count", "mean", "stddev", "sum",
                       "min", "max", "quantile", "anomaly"});
  }
  TableCheck check;
  check.metric = *metric;
  check.location = metric_field.key_location;
  ASSIGN_OR_RETURN(std::vector<Field> entries,
                   MapFields(ctx, metric_field, "a map of bounds, like {min: 1}"));
  std::optional<Field> column_field, min_field, max_field;
  for (const Field& entry : entries) {
    if (entry.key == "column") {
      column_field = entry;
    } else if (entry.key == "min") {
      min_field = entry;
    } else if (entry.key == "max") {
      max_field = entry;
    } else if (entry.key == "q") {
      if (check.metric != TableMetric::kQuantile) {
        return ctx.Error(entry.key_location.line, entry.path, "q applies only to quantile");
      }
      ASSIGN_OR_RETURN(check.q, ReadNumberInRange(ctx, entry, 0.0, 1.0));  // default 0.5
    } else if (entry.key == "mostly") {
      return ctx.Error(entry.key_location.line, entry.path,
                       "mostly does not apply to table checks (they have no rows)");
    } else {
      ASSIGN_OR_RETURN(bool is_option, ReadCheckOption(ctx, entry, false, &check.options));
      if (!is_option) {
        return UnknownKey(ctx, entry, {"column", "min", "max", "q", "severity", "message"});
      }
    }
  }
  const ColumnRule* column = nullptr;
  if (check.metric == TableMetric::kRowCount) {
    if (column_field.has_value()) {
      return ctx.Error(column_field->key_location.line, column_field->path,
                       "row_count takes no column");
    }
  } else {
    if (!column_field.has_value()) return ctx.Error(metric_field, "needs a column");
    ASSIGN_OR_RETURN(std::string name, ReadString(ctx, *column_field));
    for (const ColumnRule& declared : columns) {
      if (declared.name == name) column = &declared;
    }
    if (column == nullptr) {
      return ctx.Error(*column_field, "column '" + name + "' is not declared in columns:");
    }
    RETURN_IF_ERROR(CheckMetricFits(ctx, metric_field, check.metric, *column));
    check.column = name;
  }
  // No bounds is allowed: the check then only observes the metric (always passes).
  if (min_field.has_value()) {
    ASSIGN_OR_RETURN(check.min, ParseMetricBound(ctx, *min_field, check.metric, column));
  }
  if (max_field.has_value()) {
    ASSIGN_OR_RETURN(check.max, ParseMetricBound(ctx, *max_field, check.metric, column));
  }
  if (check.min.has_value() && check.max.has_value()) {
    if (std::optional<std::string> problem =
            EmptyRangeProblem(ObservedType(check.metric, column), RangeEnd{"min", &*check.min, true},
                              RangeEnd{"max", &*check.max, true})) {
      return ctx.Error(*max_field, *problem);
    }
  }
  return check;
}

}  // namespace

Result<std::vector<TableCheck>> LoadTableChecks(const YamlContext& ctx, const Field& table,
                                                const std::vector<ColumnRule>& columns,
                                                std::vector<AnomalyCheck>* anomalies) {
  std::vector<TableCheck> checks;
  if (table.node.IsNull()) return checks;
  ASSIGN_OR_RETURN(std::vector<Field> items, ListItems(ctx, table, "a list of table checks"));
  for (const Field& item : items) {
    if (item.node.IsMap() && item.node.size() == 1 && item.node.begin()->first.Scalar() == "anomaly") {
      ASSIGN_OR_RETURN(std::vector<Field> only, MapFields(ctx, item));
      ASSIGN_OR_RETURN(AnomalyCheck anomaly, LoadAnomalyCheck(ctx, only[0], columns));
      anomalies->push_back(std::move(anomaly));
      continue;
    }
    ASSIGN_OR_RETURN(TableCheck check, LoadTableCheck(ctx, item, columns));
    checks.push_back(std::move(check));
  }
  return checks;
}

}  // namespace griffin::rules_internal
