// The sections of a page that come from profiles: the column profiles (with
// histograms and top values) and the drift against a baseline.
#include <algorithm>
#include <string>

#include "io/source_registry.h"
#include "profile/profile_facts.h"
#include "report/html/html_page.h"
#include "report/html/html_text.h"
#include "report/html/svg_chart.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

// How many top values and patterns a column card lists.
constexpr size_t kTopListed = 10;
constexpr size_t kPatternsListed = 3;

std::string Item(std::string_view term, std::string_view text) {
  return "<dt>" + std::string(term) + "</dt><dd>" + HtmlEscape(text) + "</dd>";
}

std::string Share(int64_t part, int64_t whole) {
  return FormatPercent(whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0);
}

std::vector<ChartBar> HistogramBars(const std::vector<HistogramBin>& bins, bool as_time, ValueType type) {
  std::vector<ChartBar> bars;
  const auto bound = [&](double value) {
    return as_time ? FormatTime(static_cast<int64_t>(value), type) : FormatDoubleBrief(value);
  };
  for (const HistogramBin& bin : bins)
    bars.push_back({"[" + bound(bin.lo) + ", " + bound(bin.hi) + ")", {static_cast<double>(bin.count)}});
  return bars;
}

std::string TopTable(const TopValues& top, size_t k, std::string_view heading, int64_t values) {
  const auto entries = top.Top(k);
  if (entries.empty()) return "";
  std::string html = "<table class=\"top\"><thead><tr><th>" + std::string(heading) +
                     "</th><th class=\"num\">count</th><th class=\"num\">share</th></tr></thead><tbody>";
  for (const TopValues::Entry& entry : entries)
    html += "<tr><td class=\"value\">" + HtmlEscape(entry.value) + (entry.cut ? "&hellip;" : "") +
            "</td><td class=\"num\">" + std::to_string(entry.count) + "</td><td class=\"num\">" +
            Share(entry.count, values) + "</td></tr>";
  return html + "</tbody></table>";
}

std::string ColumnCard(const std::string& name, const ColumnState& column) {
  const InferredType inferred = InferType(column);
  const std::string type = column.unsupported() ? "unsupported" : ValueTypeName(inferred.type);
  std::string html = "<div class=\"column\" data-column=\"" + HtmlEscape(name) + "\"><h3>" + HtmlEscape(name) +
                     " <span class=\"meta\">" + HtmlEscape(type);
  if (column.values() > 0) html += " (" + FormatPercent(inferred.confidence) + ")";
  html += "</span></h3><dl>";
  html += Item("rows", std::to_string(column.rows()));
  html += Item("nulls", std::to_string(column.nulls()) + " (" + Share(column.nulls(), column.rows()) + ")");
  html += Item("distinct", (column.distinct_exact() ? "" : "~") + std::to_string(column.distinct()));
  const bool is_time = (inferred.type == ValueType::kDate || inferred.type == ValueType::kTimestamp) && column.times() > 0;
  const bool is_number = (inferred.type == ValueType::kInt64 || inferred.type == ValueType::kFloat64) &&
                         column.numbers().finite > 0;
  std::string chart;
  if (is_time) {
    html += Item("range", FormatTime(column.time_min(), inferred.type) + " .. " + FormatTime(column.time_max(), inferred.type));
    for (double level : {0.05, 0.5, 0.95})
      if (auto q = column.time_sketch().Quantile(level)) html += Item(QuantileName(level), FormatTime(*q, inferred.type));
    chart = SvgBarChart(HistogramBars(TimeHistogram(column), true, inferred.type), {}, "histogram of " + name);
  } else if (is_number) {
    const NumberStats& n = column.numbers();
    html += Item("range", FormatDoubleBrief(n.min) + " .. " + FormatDoubleBrief(n.max));
    html += Item("mean", FormatDoubleBrief(n.mean));
    if (auto sd = NumberStddev(n)) html += Item("stddev", FormatDoubleBrief(*sd));
    std::string quantiles;
    for (double level : kQuantileLevels)
      if (auto q = column.number_sketch().Quantile(level))
        quantiles += (quantiles.empty() ? "" : ", ") + QuantileName(level) + " " + FormatDoubleBrief(*q);
    html += Item("quantiles", quantiles);
    if (n.nan + n.pos_inf + n.neg_inf > 0)
      html += Item("not finite", std::to_string(n.nan) + " nan, " + std::to_string(n.pos_inf + n.neg_inf) + " inf");
    chart = SvgBarChart(HistogramBars(NumberHistogram(column), false, inferred.type), {}, "histogram of " + name);
  }
  const TextStats& text = column.text();
  if (text.values > 0 && inferred.type == ValueType::kString)
    html += Item("length", std::to_string(text.min_length) + " .. " + std::to_string(text.max_length) + ", mean " +
                               FormatDoubleBrief(static_cast<double>(text.total_length) / static_cast<double>(text.values)));
  html += "</dl>" + chart;
  if (column.values() > 0 && column.distinct_exact() && column.distinct() == column.values())
    html += "<p class=\"meta\">every value is distinct</p>";
  else if (inferred.type != ValueType::kFloat64 && !is_time)
    html += TopTable(column.top_values(), kTopListed, "value", column.values());
  if (inferred.type == ValueType::kString) html += TopTable(column.patterns(), kPatternsListed, "pattern", text.values);
  return html + "</div>";
}

}  // namespace

std::string ProfilesSection(const HtmlPageInput& input) {
  std::string html = "<section id=\"profiles\"><h2>Column profiles</h2>";
  if (!input.profile)
    return html + "<p class=\"note\">" + HtmlEscape(input.profile_note.empty() ? "No profile." : input.profile_note) +
           "</p></section>";
  const TableProfile& profile = *input.profile;
  html += "<p class=\"meta\">" + std::to_string(profile.rows()) + " rows";
  if (profile.malformed_rows() > 0) html += ", " + std::to_string(profile.malformed_rows()) + " malformed";
  html += "</p><div class=\"columns\">";
  if (input.profile_columns.empty()) {
    for (const auto& [name, column] : profile.columns()) html += ColumnCard(name, column);
  } else {
    for (const std::string& wanted : input.profile_columns)
      for (const auto& [name, column] : profile.columns())
        if (name == wanted) html += ColumnCard(name, column);
  }
  return html + "</div></section>";
}

std::string DriftSection(const DriftReport* drift) {
  std::string html = "<section id=\"drift\" class=\"drift\"><h2>Drift</h2>";
  if (!drift) return html + "<p class=\"note\">No drift result for this run.</p></section>";
  html += "<p class=\"meta\">baseline " + HtmlEscape(RedactUri(drift->baseline)) + ", current " +
          HtmlEscape(RedactUri(drift->current));
  if (drift->max) html += ", max " + FormatNumber(*drift->max);
  html += "</p>";
  for (const ColumnDrift& column : drift->columns) {
    const bool failed = drift->max && column.value && *column.value > *drift->max;
    html += "<div class=\"drift-column\" data-column=\"" + HtmlEscape(column.column) + "\"><h3>" +
            HtmlEscape(column.column) + " <span class=\"" + (failed ? "drift-failed" : "meta") + "\">";
    if (column.value) html += HtmlEscape(column.measure) + " " + FormatNumber(*column.value) + (failed ? " (over max)" : "");
    else html += HtmlEscape(column.note);
    html += "</span></h3>";
    std::vector<ChartBar> bars;
    for (const DriftMove& move : column.moved) bars.push_back({move.label, {move.baseline_share, move.current_share}});
    if (!bars.empty()) {
      html += "<p class=\"meta\">the values that moved most</p>" +
              SvgBarChart(bars, {"baseline", "current"}, "drift of " + column.column);
      html += "<table class=\"moved\"><thead><tr><th>value</th><th class=\"num\">baseline</th>"
              "<th class=\"num\">current</th></tr></thead><tbody>";
      for (const DriftMove& move : column.moved)
        html += "<tr><td class=\"value\">" + HtmlEscape(move.label) + "</td><td class=\"num\">" +
                FormatPercent(move.baseline_share) + "</td><td class=\"num\">" + FormatPercent(move.current_share) +
                "</td></tr>";
      html += "</tbody></table>";
    }
    html += "</div>";
  }
  return html + "</section>";
}

}  // namespace griffin
