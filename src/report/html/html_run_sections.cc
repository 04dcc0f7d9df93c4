// The sections of a run page that come from its report: verdict, checks,
// violations, schema.
#include <algorithm>
#include <string>

#include "report/html/html_page.h"
#include "report/html/html_text.h"
#include "util/count_of.h"

namespace griffin {
namespace {

std::string Cell(std::string_view text, std::string_view css_class = "") {
  return std::string("<td") + (css_class.empty() ? "" : " class=\"" + std::string(css_class) + "\"") + ">" +
         HtmlEscape(text) + "</td>";
}

std::string NumberCell(int64_t value) {
  return "<td class=\"num\" data-key=\"" + std::to_string(value) + "\">" + std::to_string(value) + "</td>";
}

// A sortable column header: `col` names it in the URL fragment.
std::string Header(std::string_view text, std::string_view col, bool numeric = false) {
  return std::string("<th data-col=\"") + std::string(col) + "\"" +
         (numeric ? " data-type=\"number\" class=\"num\"" : "") + "><button type=\"button\">" + HtmlEscape(text) +
         "</button></th>";
}

std::string ScalarText(const JsonScalar& value) { return value.is_null() ? "null" : value.text; }

std::string RateBar(double share) {
  return "<span class=\"rate\" aria-hidden=\"true\"><span style=\"width:" + FormatPercent(share) +
         "\"></span></span>" + FormatPercent(share);
}

}  // namespace

std::string VerdictSection(const Report& run) {
  std::string html = "<section id=\"verdict\"><h2>Verdict</h2><p><span class=\"verdict ";
  html += run.passed ? "passed\">passed" : "failed\">failed";
  html += "</span><span class=\"score\" title=\"quality score\">" + FormatPercent(run.quality_score) + "</span>";
  if (run.score_min) html += " <span class=\"meta\">(score_min " + FormatPercent(*run.score_min) + ")</span>";
  html += "</p><dl class=\"meta\">";
  const auto item = [&](std::string_view term, std::string_view text) {
    html += "<dt>" + std::string(term) + "</dt><dd>" + HtmlEscape(text) + "</dd>";
  };
  item("dataset", run.dataset);
  if (!run.run_id.empty()) item("run", run.run_id);
  std::string inputs;
  for (const std::string& input : run.inputs) inputs += (inputs.empty() ? "" : ", ") + input;
  item("inputs", inputs);
  item("rows", std::to_string(run.rows) + " (" + CountOf(run.bad_rows, "bad row") + ", " +
                   CountOf(run.malformed_rows, "malformed row") + ")");
  item("rules", run.rules_sha256.substr(0, 12));
  item("griffin", run.griffin_version + ", " + FormatNumber(run.elapsed_s) + " s on " +
                      CountOf(run.threads, "thread"));
  return html + "</dl></section>";
}

std::string ChecksSection(const Report& run) {
  std::string html = "<section id=\"checks\"><h2>Checks</h2>";
  if (run.checks.empty()) return html + "<p class=\"note\">No checks.</p></section>";
  html += "<table id=\"checks-table\" class=\"sortable\"><thead><tr>" + Header("check", "name") +
          Header("column", "column") + Header("kind", "check") + Header("severity", "severity") +
          Header("evaluated", "evaluated", true) + Header("violations", "violations", true) +
          Header("pass rate", "pass_rate", true) + Header("observed", "observed") + Header("result", "result") +
          "</tr></thead><tbody>";
  for (const CheckReport& check : run.checks) {
    const char* row_class = check.passed ? "" : (check.severity == "error" ? " class=\"failed\"" : " class=\"warn\"");
    html += std::string("<tr") + row_class + ">" + Cell(check.name) + Cell(check.column.value_or("")) +
            Cell(check.check) + Cell(check.severity);
    if (check.is_table) {
      html += "<td class=\"num\"></td><td class=\"num\"></td><td class=\"num\" data-key=\"" +
              std::string(check.passed ? "1" : "0") + "\"></td>";
      std::string observed = check.observed_text.empty() ? ScalarText(check.observed) : check.observed_text;
      if (!check.min_bound.is_null()) observed += ", min " + ScalarText(check.min_bound);
      if (!check.max_bound.is_null()) observed += ", max " + ScalarText(check.max_bound);
      html += Cell(observed, "value");
    } else {
      html += NumberCell(check.evaluated) + NumberCell(check.violations) + "<td class=\"num\" data-key=\"" +
              FormatNumber(check.pass_rate) + "\">" + RateBar(check.pass_rate) + "</td><td></td>";
    }
    std::string result = check.passed ? "passed" : "failed";
    if (!check.message.empty()) result += ": " + check.message;
    html += Cell(result) + "</tr>";
  }
  return html + "</tbody></table></section>";
}

std::string ViolationsSection(const Report& run) {
  const size_t listed = std::min(run.violations.size(), kHtmlViolationsListed);
  std::string html = "<section id=\"violations\"><h2>Violations</h2>";
  if (run.violations.empty()) return html + "<p class=\"note\">No row violations.</p></section>";
  html += "<p><input type=\"search\" placeholder=\"filter rows\" aria-label=\"filter violations\" "
          "data-filter-for=\"violations-table\"> <span id=\"violations-table-shown\" class=\"meta\"></span></p>";
  if (run.violations_truncated)
    html += "<p class=\"note\">Listing the first violations of each check; the counts under Checks are exact.</p>";
  if (listed < run.violations.size())
    html += "<p class=\"note\">The page lists the first " + std::to_string(listed) + " of the report's " +
            std::to_string(run.violations.size()) + " violations (--format json lists them all).</p>";
  html += "<table id=\"violations-table\" class=\"sortable\"><thead><tr>" + Header("row", "row", true) +
          Header("column", "column") + Header("check", "check") + Header("value", "value") +
          Header("message", "message") + "</tr></thead><tbody>";
  for (size_t i = 0; i < listed; ++i) {
    const ViolationReport& violation = run.violations[i];
    html += "<tr>" + NumberCell(violation.row) + Cell(violation.column.value_or("")) + Cell(violation.check) +
            Cell(ScalarText(violation.value), "value") + Cell(violation.message) + "</tr>";
  }
  return html + "</tbody></table></section>";
}

std::string SchemaSection(const Report& run) {
  std::string html = "<section id=\"schema\"><h2>Schema</h2>";
  if (run.schema_errors.empty() && run.schema_changes.empty())
    return html + "<p class=\"note\">No schema errors, and no schema change since the last run of these rules.</p></section>";
  if (!run.schema_errors.empty()) {
    html += "<h3>Errors</h3><ul class=\"schema-errors\">";
    for (const SchemaError& error : run.schema_errors)
      html += "<li><b>" + HtmlEscape(error.column) + "</b>: " + HtmlEscape(error.message) + "</li>";
    html += "</ul>";
  }
  if (!run.schema_changes.empty()) {
    html += "<h3>Changes since the last run</h3><ul class=\"schema-changes\">";
    for (const std::string& change : run.schema_changes) html += "<li>" + HtmlEscape(change) + "</li>";
    html += "</ul>";
  }
  return html + "</section>";
}

}  // namespace griffin
