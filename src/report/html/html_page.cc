#include "report/html/html_page.h"

#include "report/html/html_assets.h"
#include "report/html/html_text.h"
#include "report/html/svg_chart.h"

namespace griffin {

std::string TrendSection(const HtmlPageInput& input) {
  std::string html = "<section id=\"trend\"><h2>Score trend</h2>";
  if (input.history.empty())
    return html + "<p class=\"note\">" +
           HtmlEscape(input.history_note.empty() ? "No history for this dataset." : input.history_note) +
           "</p></section>";
  std::vector<ChartPoint> points;
  for (const ScorePoint& run : input.history) {
    ChartPoint point;
    point.label = "run " + std::to_string(run.version) + " " + run.started_at + (run.passed ? " passed" : " failed");
    point.value = run.quality_score;
    point.marked = !run.passed;
    if (!input.run_href_prefix.empty()) point.href = input.run_href_prefix + run.run_id;
    points.push_back(std::move(point));
  }
  html += "<p class=\"meta\">quality score of the dataset's last " + std::to_string(points.size()) +
          (points.size() == 1 ? " run" : " runs") + ", oldest first; failed runs in red</p>";
  return html + SvgLineChart(points, 0, 1, "quality score by run") + "</section>";
}

std::string WrapHtmlPage(const std::string& title, const std::vector<std::pair<std::string, std::string>>& nav,
                         const std::string& main) {
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"" + HtmlContentSecurityPolicy() + "\">"
      "<meta name=\"generator\" content=\"griffin " GRIFFIN_VERSION "\">"
      "<title>" + HtmlEscape(title) + "</title><style>" + HtmlPageStyle() + "</style></head><body><header>";
  if (!nav.empty()) {
    html += "<nav>";
    for (const auto& [text, href] : nav) html += "<a href=\"" + HtmlEscape(href) + "\">" + HtmlEscape(text) + "</a>";
    html += "</nav>";
  }
  html += "<h1>" + HtmlEscape(title) + "</h1></header><main>" + main;
  return html + "</main><script>" + HtmlPageScript() + "</script></body></html>\n";
}

std::string RenderHtmlPage(const HtmlPageInput& input) {
  std::string main;
  if (input.run) {
    main = VerdictSection(*input.run) + ChecksSection(*input.run) + ViolationsSection(*input.run) +
           TrendSection(input) + ProfilesSection(input) +
           (input.drift ? DriftSection(input.drift) : RunDriftSection(*input.run, input.run_href_prefix)) +
           RunAnomalySection(*input.run, input.run_href_prefix) + SchemaSection(*input.run);
  } else {
    main = ProfilesSection(input);
    if (input.drift) main += DriftSection(input.drift);
  }
  return WrapHtmlPage(input.title, input.nav, main);
}

}  // namespace griffin
