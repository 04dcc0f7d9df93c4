// A run page's anomaly section: one chart per anomaly check of the run, the
// metric over the dataset's last runs with the range that passed shaded and
// this run's value marked, from the check's report ("anomaly": {"series",
// "history", ...}, min/max, observed), so a page rendered from a stored
// report shows the same charts.
#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "report/html/html_page.h"
#include "report/html/html_text.h"
#include "report/html/svg_chart.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

using simdjson::dom::element;

std::string Text(element object, const char* key) {
  std::string_view s;
  if (object[key].get_string().get(s)) return "";
  return std::string(s);
}

std::optional<double> Number(element object, const char* key) {
  double value = 0;
  if (object[key].get_double().get(value)) return std::nullopt;
  return value;
}

// A check's number: a report read back from the store gives whole numbers
// (row_count 900, a bound of 770) as integers, with text only.
std::optional<double> NumberOf(const JsonScalar& scalar) {
  if (scalar.number) return scalar.number;
  if (scalar.kind != JsonScalar::Kind::kRaw) return std::nullopt;
  return ParseFloat64(scalar.text);
}

struct Point {
  std::string run_id, started_at;
  int64_t version = 0;
  double value = 0;
};

std::vector<Point> Points(element object, const char* key) {
  std::vector<Point> points;
  simdjson::dom::array list;
  if (object[key].get_array().get(list)) return points;
  for (element item : list) {
    const std::optional<double> value = Number(item, "value");
    if (!value) continue;
    Point point{Text(item, "run_id"), Text(item, "started_at"), 0, *value};
    int64_t version = 0;
    if (!item["version"].get_int64().get(version)) point.version = version;
    points.push_back(std::move(point));
  }
  return points;
}

// A value or bound as the check's message writes it (6 significant digits):
// a band of 99.79 … 100.2 would hide that 100.21 passed.
std::string Brief(double value) { return FormatDoubleBrief(value); }

// "770 … 1650", "≤ 139", "≥ 12": the range that passed.
std::string RangeText(const std::optional<double>& low, const std::optional<double>& high) {
  if (low && high) return Brief(*low) + " … " + Brief(*high);
  if (high) return "≤ " + Brief(*high);
  return "≥ " + Brief(*low);
}

// The y axis: every value drawn and the band's closed sides, with a margin;
// never below 0 when nothing drawn is negative.
std::pair<double, double> Axis(const std::vector<ChartPoint>& points, const ChartBand& band) {
  double low = INFINITY, high = -INFINITY;
  const auto widen = [&](double value) {
    if (!std::isfinite(value)) return;
    low = std::min(low, value);
    high = std::max(high, value);
  };
  for (const ChartPoint& point : points) widen(point.value);
  if (band.low) widen(*band.low);
  if (band.high) widen(*band.high);
  if (!std::isfinite(low)) return {0, 1};
  const double margin = high > low ? (high - low) * 0.1 : std::max(std::fabs(low) * 0.1, 1.0);
  return {low >= 0 ? std::max(0.0, low - margin) : low - margin, high + margin};
}

std::string CheckCard(const CheckReport& check, const std::string& run_href_prefix) {
  simdjson::dom::parser parser;
  element detail;
  const bool parsed = !parser.parse(check.detail_json).get(detail) && detail.is_object();
  const std::string metric = parsed ? Text(detail, "metric") : check.name;
  const std::optional<double> low = NumberOf(check.min_bound), high = NumberOf(check.max_bound);
  const std::optional<double> observed = NumberOf(check.observed);
  const bool judged = check.note.empty() && (low || high);
  std::string html = "<div class=\"anomaly-check\" data-check=\"" + HtmlEscape(check.name) + "\" data-metric=\"" +
                     HtmlEscape(metric) + "\"><h3>" + HtmlEscape(metric) + " <span class=\"" +
                     (check.passed ? "meta" : "anomaly-failed") + "\">";
  if (observed) {
    html += HtmlEscape(Brief(*observed));
    if (judged) html += std::string(check.passed ? " within " : " outside ") + HtmlEscape(RangeText(low, high));
  }
  html += "</span></h3>";
  if (!check.passed && !check.message.empty()) html += "<p class=\"anomaly-failed\">" + HtmlEscape(check.message) + "</p>";
  if (!check.note.empty()) html += "<p class=\"note\">" + HtmlEscape(check.note) + "</p>";
  if (!parsed) return html + "</div>";

  const std::string strategy = Text(detail, "strategy");
  const std::optional<double> expected = Number(detail, "expected"), stddev = Number(detail, "stddev");
  const std::vector<Point> history = Points(detail, "history"), series = Points(detail, "series");
  if (judged) {
    html += "<p class=\"meta\">" + HtmlEscape(strategy);
    if (expected) html += ", expected " + HtmlEscape(Brief(*expected));
    if (stddev) html += ", stddev " + HtmlEscape(Brief(*stddev));
    html += ", compared with " + std::to_string(history.size()) + (history.size() == 1 ? " earlier run" : " earlier runs");
    html += "</p>";
  }
  std::set<std::string> compared;
  for (const Point& point : history) compared.insert(point.run_id);
  std::vector<ChartPoint> points;
  for (const Point& point : series) {
    ChartPoint mark;
    mark.label = "run " + std::to_string(point.version) + " " + point.started_at;
    mark.value = point.value;
    mark.css_class = compared.count(point.run_id) ? "history" : "earlier";
    if (!run_href_prefix.empty()) mark.href = run_href_prefix + point.run_id;
    points.push_back(std::move(mark));
  }
  if (observed && std::isfinite(*observed)) {  // a mean of NaN is in the heading, not on the axis
    ChartPoint current;
    current.label = "this run";
    current.value = *observed;
    current.marked = !check.passed;
    current.css_class = "current";
    points.push_back(std::move(current));
  }
  if (points.empty()) return html + "</div>";
  const ChartBand band{low, high, judged ? "passes: " + RangeText(low, high) : ""};
  const auto [y_min, y_max] = Axis(points, band);
  html += SvgLineChart(points, y_min, y_max, metric + " by run, with the range that passed", judged ? &band : nullptr);
  return html + "</div>";
}

}  // namespace

std::string RunAnomalySection(const Report& run, const std::string& run_href_prefix) {
  std::string html = "<section id=\"anomalies\" class=\"anomalies\"><h2>Anomalies</h2>";
  std::string cards;
  for (const CheckReport& check : run.checks)
    if (check.check == "anomaly") cards += CheckCard(check, run_href_prefix);
  if (cards.empty()) return html + "<p class=\"note\">No anomaly checks in this run's rules.</p></section>";
  return html + "<p class=\"meta\">each anomaly check's metric over the dataset's last runs, oldest first "
                "(the runs it was compared with in blue, others in grey), this run last (red when it failed), "
                "and the range that passed shaded</p>" +
         cards + "</section>";
}

}  // namespace griffin
