#include "profile/drift_report.h"

#include "report/json_writer.h"
#include "report/report.h"
#include "util/text_cut.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

bool ColumnPassed(const ColumnDrift& column, const std::optional<double>& max) {
  return !max || !column.value || *column.value <= *max;
}

std::string Number(double value) {
  const JsonScalar scalar = JsonScalar::Number(value);
  return scalar.is_null() ? "null" : scalar.text;
}

}  // namespace

void AppendDriftMovesJson(const std::vector<DriftMove>& moved, std::string* out) {
  *out += "[";
  for (size_t m = 0; m < moved.size(); ++m) {
    *out += m ? ", {\"value\": " : "{\"value\": ";
    AppendJsonString(moved[m].label, out);
    *out += ", \"baseline_share\": " + Number(moved[m].baseline_share) +
            ", \"current_share\": " + Number(moved[m].current_share) + "}";
  }
  *out += "]";
}

bool DriftReport::passed() const {
  for (const ColumnDrift& column : columns)
    if (!ColumnPassed(column, max)) return false;
  return true;
}

std::string DriftToJson(const DriftReport& report) {
  std::string out = "{\"baseline\": ";
  AppendJsonString(report.baseline, &out);
  out += ", \"current\": ";
  AppendJsonString(report.current, &out);
  out += ", \"max\": " + (report.max ? Number(*report.max) : std::string("null"));
  out += std::string(", \"passed\": ") + (report.passed() ? "true" : "false") + ", \"columns\": [";
  for (size_t i = 0; i < report.columns.size(); ++i) {
    const ColumnDrift& c = report.columns[i];
    out += i ? ", {\"column\": " : "{\"column\": ";
    AppendJsonString(c.column, &out);
    out += ", \"measure\": ";
    if (c.measure.empty()) out += "null";
    else AppendJsonString(c.measure, &out);
    out += ", \"value\": " + (c.value ? Number(*c.value) : std::string("null"));
    out += std::string(", \"passed\": ") + (ColumnPassed(c, report.max) ? "true" : "false");
    out += ", \"note\": ";
    if (c.note.empty()) out += "null";
    else AppendJsonString(c.note, &out);
    out += ", \"moved\": ";
    AppendDriftMovesJson(c.moved, &out);
    out += "}";
  }
  return out + "]}\n";
}

std::string DriftToText(const DriftReport& report) {
  std::string out = "drift of " + report.current + " against " + report.baseline;
  if (report.max) out += " (max " + FormatDoubleBrief(*report.max) + ")";
  out += "\n";
  for (const ColumnDrift& c : report.columns) {
    out += "  " + CutText(c.column) + "  ";
    if (!c.value) {
      out += "not compared: " + c.note + "\n";
      continue;
    }
    out += (c.measure == "js" ? "jensen-shannon " : "l-infinity ") + FormatDoubleBrief(*c.value);
    if (report.max) out += ColumnPassed(c, report.max) ? "  pass" : "  FAIL";
    if (!c.moved.empty()) {
      const DriftMove& top = c.moved.front();
      out += "  most moved " + CutText(top.label) + ": " + FormatDoubleBrief(top.baseline_share) + " -> " +
             FormatDoubleBrief(top.current_share);
    }
    out += "\n";
  }
  out += report.passed() ? "passed\n" : "FAILED: drift above the maximum\n";
  return out;
}

}  // namespace griffin
