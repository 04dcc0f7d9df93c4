#include "report/junit_writer.h"

#include <cstdio>

namespace griffin {
namespace {

std::string XmlEscape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') out += ' ';
        else out += c;
    }
  }
  return out;
}

}  // namespace

std::string ReportToJunit(const Report& report) {
  int failures = 0;
  for (const CheckReport& c : report.checks) failures += (!c.passed && c.severity == "error");
  const bool schema_failed = !report.schema_errors.empty();
  const bool score_failed = report.score_min && report.quality_score < *report.score_min;
  failures += schema_failed + score_failed;
  char buffer[512];
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  std::snprintf(buffer, sizeof buffer, "<testsuites name=\"griffin\" tests=\"%zu\" failures=\"%d\" time=\"%.3f\">\n",
                report.checks.size() + 2, failures, report.elapsed_s);
  out += buffer;
  std::snprintf(buffer, sizeof buffer, "  <testsuite name=\"%s\" tests=\"%zu\" failures=\"%d\" time=\"%.3f\">\n",
                XmlEscape(report.dataset).c_str(), report.checks.size() + 2, failures, report.elapsed_s);
  out += buffer;
  const std::string classname = XmlEscape(report.dataset);
  for (const CheckReport& c : report.checks) {
    out += "    <testcase classname=\"" + classname + "\" name=\"" + XmlEscape(c.name) + "\">\n";
    std::string detail;
    if (c.is_table) {
      detail = "observed " + c.observed_text;
    } else {
      std::snprintf(buffer, sizeof buffer, "%lld of %lld evaluated rows violate it (pass rate %.6f, mostly %.6g)",
                    static_cast<long long>(c.violations), static_cast<long long>(c.evaluated), c.pass_rate, c.mostly);
      detail = buffer;
    }
    if (!c.passed && c.severity == "error") {
      out += "      <failure message=\"" + XmlEscape(detail) + "\" type=\"" + XmlEscape(c.check) + "\">";
      int shown = 0;
      for (const ViolationReport& v : report.violations) {
        if (v.check != c.name || shown++ == 10) continue;
        out += XmlEscape("row " + std::to_string(v.row) + ": " + v.message) + "\n";
      }
      out += "</failure>\n";
    } else {
      out += "      <system-out>" + XmlEscape((c.passed ? "passed: " : "warning: ") + detail) + "</system-out>\n";
    }
    out += "    </testcase>\n";
  }
  out += "    <testcase classname=\"" + classname + "\" name=\"schema\">\n";
  if (schema_failed) {
    std::string detail;
    for (const SchemaError& e : report.schema_errors) detail += e.column + ": " + e.message + "\n";
    out += "      <failure message=\"schema errors\" type=\"schema\">" + XmlEscape(detail) + "</failure>\n";
  }
  out += "    </testcase>\n";
  std::snprintf(buffer, sizeof buffer, "quality_score %.6f, %lld bad rows of %lld", report.quality_score,
                static_cast<long long>(report.bad_rows), static_cast<long long>(report.rows));
  out += "    <testcase classname=\"" + classname + "\" name=\"quality_score\">\n";
  if (score_failed) out += "      <failure message=\"" + XmlEscape(buffer) + "\" type=\"score\"/>\n";
  else out += "      <system-out>" + XmlEscape(buffer) + "</system-out>\n";
  out += "    </testcase>\n  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace griffin
