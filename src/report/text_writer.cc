#include "report/text_writer.h"

#include <algorithm>
#include <cstdio>

#include "util/text_cut.h"  // WithThousands
#include "util/value_parse.h"

namespace griffin {
namespace {

constexpr int kExamplesPerCheck = 3;
constexpr size_t kMaxShownValue = 90;

std::string Percent(double fraction) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f%%", fraction * 100);
  return buffer;
}

std::string Pad(const std::string& text, size_t width, bool right = false) {
  if (text.size() >= width) return text;
  std::string fill(width - text.size(), ' ');
  return right ? fill + text : text + fill;
}

// A number as people read it (FormatDoubleBrief); other scalars as they are.
// JSON keeps every number exact.
std::string Brief(const JsonScalar& value, const std::string& text) {
  return value.number ? FormatDoubleBrief(*value.number) : text;
}

std::string Shorten(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  if (text.size() > kMaxShownValue) text = text.substr(0, kMaxShownValue - 3) + "...";
  return text;
}

}  // namespace

std::string ReportToText(const Report& report, bool color) {
  const char* red = color ? "\033[31m" : "";
  const char* green = color ? "\033[32m" : "";
  const char* yellow = color ? "\033[33m" : "";
  const char* bold = color ? "\033[1m" : "";
  const char* reset = color ? "\033[0m" : "";
  std::string out;
  char line[256];
  out += std::string(bold) + "griffin " + report.griffin_version + "  dataset " + report.dataset + "  " +
         (report.passed ? std::string(green) + "PASSED" : std::string(red) + "FAILED") + reset + "\n";
  std::snprintf(line, sizeof line, "rows %s   bad rows %s (%s)   malformed %s   quality score %.6f",
                WithThousands(report.rows).c_str(), WithThousands(report.bad_rows).c_str(),
                Percent(report.rows ? static_cast<double>(report.bad_rows) / report.rows : 0).c_str(),
                WithThousands(report.malformed_rows).c_str(), report.quality_score);
  out += line;
  if (report.score_min) {
    std::snprintf(line, sizeof line, " (min %.4g)", *report.score_min);
    out += line;
  }
  std::snprintf(line, sizeof line, "   %.2fs\n", report.elapsed_s);
  out += line;
  for (const std::string& change : report.schema_changes)
    out += std::string(yellow) + "schema changed: " + reset + change + "\n";
  if (report.spill) {
    std::snprintf(line, sizeof line, "spilled %s bytes of unique/distinct state to temporary files (--memory-limit):",
                  WithThousands(report.spill->bytes).c_str());
    out += line;
    for (const std::string& check : report.spill->checks) out += " " + check;
    if (report.spill->passes > 1) out += "; the inputs were read twice, the outputs written on the second pass";
    out += "\n";
  }
  if (const auto& inc = report.increment) {
    out += "increment: " + inc->column + (inc->after ? " > " + *inc->after : std::string(" (every row)")) +
           (inc->through ? " through " + *inc->through : std::string(", no row has a value")) +
           "; table checks cover " + (inc->scope == "increment" ? "the increment" : "the whole table") + "\n";
  }
  for (const SchemaError& error : report.schema_errors)
    out += std::string(red) + "schema: " + reset + error.column + ": " + error.message + "\n";

  // Failing checks first (errors before warnings), then the rest, each in file order.
  std::vector<size_t> order(report.checks.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto rank = [&](size_t i) {
    const CheckReport& c = report.checks[i];
    if (c.passed) return 2;
    return c.severity == "error" ? 0 : 1;
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return rank(a) < rank(b); });
  size_t name_width = 5;
  for (const CheckReport& c : report.checks) name_width = std::max(name_width, c.name.size());
  out += "\n" + std::string(bold) + Pad("CHECK", name_width) + "  " + Pad("SEVERITY", 8) + "  " +
         Pad("EVALUATED", 12, true) + "  " + Pad("VIOLATIONS", 11, true) + "  " + Pad("PASS RATE", 9, true) +
         "  " + Pad("MOSTLY", 8, true) + "  RESULT" + reset + "\n";
  for (size_t i : order) {
    const CheckReport& c = report.checks[i];
    std::string result = c.passed ? std::string(green) + "pass" + reset
                                  : (c.severity == "error" ? std::string(red) + "FAIL" : std::string(yellow) + "warn") + reset;
    if (c.is_table) {
      std::string bounds;
      if (!c.min_bound.is_null()) bounds += "min " + Brief(c.min_bound, c.min_bound.text);
      if (!c.max_bound.is_null())
        bounds += std::string(bounds.empty() ? "" : ", ") + "max " + Brief(c.max_bound, c.max_bound.text);
      out += Pad(c.name, name_width) + "  " + Pad(c.severity, 8) + "  " +
             Pad("observed " + Brief(c.observed, c.observed_text) + (bounds.empty() ? "" : " (" + bounds + ")"), 47) +
             "  " +
             result + "\n";
      if (!c.note.empty()) out += "    note: " + c.note + "\n";
      if (!c.detail_key.empty() && !c.passed && !c.message.empty()) out += "    " + c.message + "\n";
    } else {
      char mostly[32];
      std::snprintf(mostly, sizeof mostly, "%.4g%%", c.mostly * 100);
      out += Pad(c.name, name_width) + "  " + Pad(c.severity, 8) + "  " + Pad(WithThousands(c.evaluated), 12, true) +
             "  " + Pad(WithThousands(c.violations), 11, true) + "  " + Pad(Percent(c.pass_rate), 9, true) + "  " +
             Pad(mostly, 8, true) + "  " + result + "\n";
    }
    if (c.passed || c.is_table) continue;
    int shown = 0;
    for (const ViolationReport& v : report.violations) {
      if (v.check != c.name) continue;
      if (shown++ == kExamplesPerCheck) break;
      out += "    row " + Pad(std::to_string(v.row), 10) + Shorten(v.message) + "\n";
    }
  }
  // Malformed records of a tolerated (passing) `malformed` check, or of a
  // report without that check (stored before it existed): still worth showing.
  bool malformed_listed = false;
  for (const CheckReport& c : report.checks) malformed_listed = malformed_listed || (c.name == "malformed" && !c.passed);
  int malformed_shown = 0;
  for (const ViolationReport& v : report.violations) {
    if (malformed_listed || v.check != "malformed" || malformed_shown++ == kExamplesPerCheck) continue;
    if (malformed_shown == 1) out += std::string(yellow) + "malformed records" + reset + "\n";
    out += "    row " + Pad(std::to_string(v.row), 10) + Shorten(v.message) + "\n";
  }
  // JSON lists as many as text does (--max-violations per check); text shows
  // a few examples of each failing check.
  if (report.violations_truncated)
    out += "\n(a check had more violations than listed; counts are exact. --max-violations N lists up to N per check.)\n";
  return out;
}

}  // namespace griffin
