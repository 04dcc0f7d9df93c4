#include "report/html/html_index.h"

#include "report/html/html_page.h"
#include "report/html/html_text.h"
#include "report/html/svg_chart.h"

namespace griffin {
namespace {

std::string RunsTable(const DatasetRuns& dataset, size_t index, const std::string& run_href_prefix) {
  const std::string id = "runs-" + std::to_string(index);
  std::string html = "<table id=\"" + id + "\" class=\"sortable\"><thead><tr>"
                     "<th data-col=\"version\" data-type=\"number\" class=\"num\"><button type=\"button\">run #</button></th>"
                     "<th data-col=\"run\"><button type=\"button\">run id</button></th>"
                     "<th data-col=\"started\"><button type=\"button\">started</button></th>"
                     "<th data-col=\"status\"><button type=\"button\">status</button></th>"
                     "<th data-col=\"rows\" data-type=\"number\" class=\"num\"><button type=\"button\">rows</button></th>"
                     "<th data-col=\"bad\" data-type=\"number\" class=\"num\"><button type=\"button\">bad rows</button></th>"
                     "<th data-col=\"score\" data-type=\"number\" class=\"num\"><button type=\"button\">score</button></th>"
                     "<th data-col=\"verdict\"><button type=\"button\">verdict</button></th></tr></thead><tbody>";
  for (const RunSummary& run : dataset.runs) {
    const bool complete = run.status == "complete";
    html += std::string("<tr") + (complete && !run.passed ? " class=\"failed\"" : "") + "><td class=\"num\">" +
            std::to_string(run.version) + "</td><td class=\"value\">";
    if (complete) html += "<a href=\"" + HtmlEscape(run_href_prefix + run.run_id) + "\">" + HtmlEscape(run.run_id) + "</a>";
    else html += HtmlEscape(run.run_id);
    html += "</td><td>" + HtmlEscape(run.started_at) + "</td><td>" + HtmlEscape(run.status) + "</td><td class=\"num\">" +
            std::to_string(run.rows) + "</td><td class=\"num\">" + std::to_string(run.bad_rows) +
            "</td><td class=\"num\" data-key=\"" + FormatNumber(run.quality_score) + "\">" +
            (complete ? FormatPercent(run.quality_score) : "") + "</td><td>" +
            (complete ? (run.passed ? "passed" : "failed") : "") + "</td></tr>";
  }
  return html + "</tbody></table>";
}

}  // namespace

std::string RenderIndexPage(const std::string& title, const std::vector<DatasetRuns>& datasets,
                            const std::string& run_href_prefix) {
  std::string main = "<section id=\"datasets\"><h2>Datasets</h2>";
  if (datasets.empty()) main += "<p class=\"note\">No dataset is visible to this key.</p>";
  for (size_t index = 0; index < datasets.size(); ++index) {
    const DatasetRuns& dataset = datasets[index];
    main += "<div class=\"dataset\" data-dataset=\"" + HtmlEscape(dataset.dataset) + "\"><h3>" +
            HtmlEscape(dataset.dataset) + "</h3>";
    if (dataset.runs.empty()) {
      main += "<p class=\"note\">" + HtmlEscape(dataset.note.empty() ? "No runs recorded yet." : dataset.note) + "</p></div>";
      continue;
    }
    std::vector<ChartPoint> points;
    for (auto run = dataset.runs.rbegin(); run != dataset.runs.rend(); ++run)
      if (run->status == "complete")
        points.push_back({"run " + std::to_string(run->version) + " " + run->started_at, run->quality_score,
                          !run->passed, run_href_prefix + run->run_id});
    if (!points.empty()) main += SvgLineChart(points, 0, 1, "quality score of " + dataset.dataset + " by run");
    main += RunsTable(dataset, index, run_href_prefix) + "</div>";
  }
  return WrapHtmlPage(title, {}, main + "</section>");
}

}  // namespace griffin
