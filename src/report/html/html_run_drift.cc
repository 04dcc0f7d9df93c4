// A run page's drift section: one chart per drift check of the run, the
// baseline's distribution against the run's (every bin, or the most common
// values), from the check's report ("drift": {"distribution": ...}), so a
// page rendered from a stored report shows the same charts.
#include <simdjson.h>

#include <string>

#include "report/html/html_page.h"
#include "report/html/html_text.h"
#include "report/html/svg_chart.h"

namespace griffin {
namespace {

using simdjson::dom::element;

std::string Text(element object, const char* key) {
  std::string_view s;
  element e;
  if (object[key].get(e) || e.get_string().get(s)) return "";
  return std::string(s);
}

std::vector<DriftMove> Moves(element object, const char* key) {
  std::vector<DriftMove> moves;
  simdjson::dom::array list;
  if (object[key].get_array().get(list)) return moves;
  for (element item : list) {
    DriftMove move;
    move.label = Text(item, "value");
    double share = 0;
    if (!item["baseline_share"].get_double().get(share)) move.baseline_share = share;
    if (!item["current_share"].get_double().get(share)) move.current_share = share;
    moves.push_back(std::move(move));
  }
  return moves;
}

std::string MovesTable(const std::vector<DriftMove>& moved) {
  std::string html = "<table class=\"moved\"><thead><tr><th>value</th><th class=\"num\">baseline</th>"
                     "<th class=\"num\">current</th></tr></thead><tbody>";
  for (const DriftMove& move : moved)
    html += "<tr><td class=\"value\">" + HtmlEscape(move.label) + "</td><td class=\"num\">" +
            FormatPercent(move.baseline_share) + "</td><td class=\"num\">" + FormatPercent(move.current_share) +
            "</td></tr>";
  return html + "</tbody></table>";
}

std::string CheckCard(const CheckReport& check, const std::string& run_href_prefix) {
  simdjson::dom::parser parser;
  element detail;
  const bool parsed = !parser.parse(check.detail_json).get(detail) && detail.is_object();
  const std::string column = check.column.value_or(check.name);
  const std::string measure = parsed ? Text(detail, "measure") : "";
  std::string html = "<div class=\"drift-column\" data-column=\"" + HtmlEscape(column) + "\" data-check=\"" +
                     HtmlEscape(check.name) + "\"><h3>" + HtmlEscape(column) + " <span class=\"" +
                     (check.passed ? "meta" : "drift-failed") + "\">";
  if (check.observed.number) {
    html += HtmlEscape(measure) + " " + FormatNumber(*check.observed.number);
    if (check.max_bound.number) html += (check.passed ? " &le; max " : " &gt; max ") + FormatNumber(*check.max_bound.number);
  } else {
    html += HtmlEscape(check.note.empty() ? check.message : check.note);
  }
  html += "</span></h3>";
  if (!parsed) return html + "</div>";
  const std::string baseline = Text(detail, "baseline"), baseline_run = Text(detail, "baseline_run_id");
  html += "<p class=\"meta\">against " + HtmlEscape(baseline);
  if (!baseline_run.empty()) {
    html += " (run ";
    if (!run_href_prefix.empty())
      html += "<a href=\"" + HtmlEscape(run_href_prefix + baseline_run) + "\">" + HtmlEscape(baseline_run.substr(0, 8)) + "</a>";
    else
      html += HtmlEscape(baseline_run.substr(0, 8));
    html += ")";
  }
  html += "</p>";
  const std::vector<DriftMove> distribution = Moves(detail, "distribution");
  const std::vector<DriftMove> moved = Moves(detail, "moved");
  std::vector<ChartBar> bars;
  for (const DriftMove& move : distribution.empty() ? moved : distribution)
    bars.push_back({move.label, {move.baseline_share, move.current_share}});
  if (!bars.empty())
    html += SvgBarChart(bars, {"baseline", "current"}, "distribution of " + column + ", baseline and current");
  if (!moved.empty()) html += "<p class=\"meta\">the values that moved most</p>" + MovesTable(moved);
  return html + "</div>";
}

}  // namespace

std::string RunDriftSection(const Report& run, const std::string& run_href_prefix) {
  std::string html = "<section id=\"drift\" class=\"drift\"><h2>Drift</h2>";
  std::string cards;
  for (const CheckReport& check : run.checks)
    if (check.check == "drift") cards += CheckCard(check, run_href_prefix);
  if (cards.empty()) return html + "<p class=\"note\">No drift checks in this run's rules.</p></section>";
  return html + "<p class=\"meta\">each drift check's baseline (grey) against this run (blue): shares of the "
                "non-null values per bin, or of the most common values</p>" +
         cards + "</section>";
}

}  // namespace griffin
