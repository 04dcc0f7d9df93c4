#include "history/anomaly_checks.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "history/anomaly_strategies.h"
#include "report/json_writer.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

std::string Brief(double value) { return FormatDoubleBrief(value); }

void AppendNumber(std::optional<double> value, std::string* out) {
  if (!value || !std::isfinite(*value)) *out += "null";
  else *out += FormatDouble(*value);
}

void AppendPoint(const MetricPoint& point, std::string* out) {
  *out += "{\"run_id\": ";
  AppendJsonString(point.run_id, out);
  *out += ", \"version\": " + std::to_string(point.version) + ", \"started_at\": ";
  AppendJsonString(point.started_at, out);
  *out += ", \"value\": ";
  AppendNumber(point.value, out);
  *out += "}";
}

// The check's JSON detail: {"metric", "strategy", "season", "expected",
// "stddev", "change", "z", "history": [{"run_id", "version", "started_at",
// "value"}, oldest first], "series": [the same, the last kAnomalySeriesRuns
// runs, oldest first: what the HTML page charts]}.
std::string DetailJson(const AnomalyCheck& check, const AnomalyVerdict& verdict,
                       const std::vector<MetricPoint>& history) {
  std::string out = "{\"metric\": ";
  AppendJsonString(check.metric_text, &out);
  out += ", \"strategy\": ";
  AppendJsonString(AnomalyStrategyName(check.strategy), &out);
  out += ", \"season\": " + std::to_string(check.season);
  out += ", \"expected\": ";
  AppendNumber(verdict.expected, &out);
  out += ", \"stddev\": ";
  AppendNumber(verdict.stddev, &out);
  out += ", \"change\": ";
  AppendNumber(verdict.change, &out);
  out += ", \"z\": ";
  AppendNumber(verdict.z, &out);
  out += ", \"history\": [";
  for (size_t i = verdict.used.size(); i-- > 0;) {
    if (i + 1 != verdict.used.size()) out += ", ";
    AppendPoint(history[verdict.used[i]], &out);
  }
  out += "], \"series\": [";
  for (size_t i = std::min(history.size(), kAnomalySeriesRuns); i-- > 0;) {
    AppendPoint(history[i], &out);
    if (i != 0) out += ", ";
  }
  return out + "]}";
}

std::string Percent(double fraction) { return Brief(fraction * 100) + "%"; }

// Why a judged value failed: "row_count 1500 rose by 87.5% from 800 (run 3),
// more than max_increase 0.5".
std::string FailureMessage(const AnomalyCheck& check, double value, const AnomalyVerdict& verdict,
                           const std::vector<MetricPoint>& history) {
  std::string message = check.metric_text + " " + Brief(value);
  if (std::isnan(value)) return message + " is not a number";
  const bool above = verdict.upper && value > *verdict.upper;
  if (check.strategy == AnomalyCheck::Strategy::kZScore) {
    const size_t n = verdict.used.size();
    message += " is " + (verdict.z && std::isinf(*verdict.z) ? std::string("infinitely many")
                                                               : Brief(std::fabs(verdict.z.value_or(0)))) +
               " standard deviations " + (above ? "above" : "below") + " the mean " + Brief(*verdict.expected) +
               " of the " + std::to_string(n) + " earlier run" + (n == 1 ? "" : "s");
    if (check.season > 1) message += " " + std::to_string(check.season) + " runs apart";
    return message + " (max " + Brief(check.max_z) + ", stddev " + Brief(verdict.stddev.value_or(0)) + ")";
  }
  const MetricPoint& previous = history[verdict.used.front()];
  const bool relative = check.strategy == AnomalyCheck::Strategy::kRelativeChange;
  const double change = std::fabs(verdict.change.value_or(0));
  message += std::string(above ? " rose by " : " fell by ") + (relative ? Percent(change) : Brief(change)) +
             " from " + Brief(previous.value) + " (run " + std::to_string(previous.version) +
             (check.season > 1 ? ", " + std::to_string(check.season) + " runs back" : "") + "), more than " +
             (above ? "max_increase " + Brief(*check.max_increase) : "max_decrease " + Brief(*check.max_decrease));
  return message;
}

std::optional<double> NumberText(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  return ParseFloat64(*text);
}

}  // namespace

std::optional<double> CurrentMetricValue(const AnomalyCheck& check, const Report& report) {
  switch (check.metric) {
    case AnomalyMetric::kRowCount: return static_cast<double>(report.rows);
    case AnomalyMetric::kBadRows: return static_cast<double>(report.bad_rows);
    case AnomalyMetric::kQualityScore: return report.quality_score;
    default: break;
  }
  const ColumnSummary* summary = nullptr;
  for (const ColumnSummary& candidate : report.column_summaries)
    if (check.column && candidate.column == *check.column) summary = &candidate;
  if (summary == nullptr) return std::nullopt;
  switch (check.metric) {
    case AnomalyMetric::kNullCount: return static_cast<double>(summary->nulls);
    case AnomalyMetric::kNullFraction:
      if (summary->count + summary->nulls == 0) return std::nullopt;
      return static_cast<double>(summary->nulls) / static_cast<double>(summary->count + summary->nulls);
    case AnomalyMetric::kDistinctCount: return static_cast<double>(summary->distinct);
    case AnomalyMetric::kMean: return summary->mean;
    case AnomalyMetric::kStddev: return summary->stddev;
    case AnomalyMetric::kMin: return NumberText(summary->min);
    case AnomalyMetric::kMax: return NumberText(summary->max);
    default: return std::nullopt;
  }
}

void JudgeAnomalyCheck(const AnomalyCheck& check, const std::string& dataset, const HistoryContext& context,
                       const Report& report, CheckReport* out) {
  out->note.clear();
  out->message.clear();
  out->detail_key = "anomaly";
  out->passed = true;
  AnomalyVerdict verdict;
  std::vector<MetricPoint> history;
  const std::optional<double> value = CurrentMetricValue(check, report);
  if (value) {
    out->observed = JsonScalar::Number(*value);
    out->observed_text = Brief(*value);
  }
  if (context.store == nullptr) {
    out->note = "no run store (" + context.no_store_reason + "), so no history of " + check.metric_text;
  } else if (!value) {
    out->note = check.column ? "this run has no " + check.metric_text + " (no values in column '" + *check.column +
                                   "', or the column is absent)"
                             : "this run has no " + check.metric_text;
  } else {
    Result<std::vector<MetricPoint>> points = context.store->MetricHistory(
        dataset, check.column.value_or(""), AnomalyMetricName(check.metric),
        std::max(HistoryNeeded(check), static_cast<int>(kAnomalySeriesRuns)));
    if (!points.ok()) {
      out->passed = false;
      out->message = "the history of " + check.metric_text + " could not be read: " + points.status().message();
    } else {
      for (MetricPoint& point : *points)
        if (std::isfinite(point.value)) history.push_back(std::move(point));
      std::vector<double> values;
      for (const MetricPoint& point : history) values.push_back(point.value);
      verdict = JudgeAnomaly(check, *value, values);
      if (!verdict.judged) {
        out->note = verdict.note + " (dataset '" + dataset + "', " + check.metric_text + ")";
      } else {
        out->passed = verdict.passed;
        if (verdict.lower) out->min_bound = JsonScalar::Number(*verdict.lower);
        if (verdict.upper) out->max_bound = JsonScalar::Number(*verdict.upper);
        if (!out->passed) out->message = FailureMessage(check, *value, verdict, history);
      }
    }
  }
  if (!out->passed && check.options.message) out->message = *check.options.message;
  out->detail_json = DetailJson(check, verdict, history);
}

}  // namespace griffin
