#include "report/json_writer.h"

#include <cstdio>

#include "util/value_parse.h"

namespace griffin {
namespace {

// Length of the valid UTF-8 sequence at s[i], or 0.
size_t Utf8SequenceLength(std::string_view s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t length = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (length == 0 || i + length > s.size()) return 0;
  return IsValidUtf8(s.substr(i, length)) ? length : 0;
}

void AppendScalar(const JsonScalar& value, std::string* out) {
  switch (value.kind) {
    case JsonScalar::Kind::kNull: *out += "null"; break;
    case JsonScalar::Kind::kString: AppendJsonString(value.text, out); break;
    case JsonScalar::Kind::kRaw: *out += value.text; break;
  }
}

void AppendNumber(double value, std::string* out) { AppendScalar(JsonScalar::Number(value), out); }

void AppendOptionalString(const std::optional<std::string>& value, std::string* out) {
  if (value) AppendJsonString(*value, out);
  else *out += "null";
}

void Key(const char* name, std::string* out) {
  AppendJsonString(name, out);
  *out += ": ";
}

}  // namespace

void AppendJsonString(std::string_view text, std::string* out) {
  out->push_back('"');
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '"') { *out += "\\\""; ++i; continue; }
    if (c == '\\') { *out += "\\\\"; ++i; continue; }
    if (c < 0x20) {
      switch (c) {
        case '\n': *out += "\\n"; break;
        case '\r': *out += "\\r"; break;
        case '\t': *out += "\\t"; break;
        default: {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
          *out += buffer;
        }
      }
      ++i;
      continue;
    }
    if (c < 0x80) { out->push_back(static_cast<char>(c)); ++i; continue; }
    size_t length = Utf8SequenceLength(text, i);
    if (length == 0) { *out += "\xEF\xBF\xBD"; ++i; continue; }
    out->append(text.data() + i, length);
    i += length;
  }
  out->push_back('"');
}

std::string ReportToJson(const Report& report) {
  std::string out;
  out.reserve(4096 + report.violations.size() * 160);
  out += "{\n  ";
  Key("griffin_version", &out); AppendJsonString(report.griffin_version, &out);
  out += ",\n  "; Key("run_id", &out); AppendJsonString(report.run_id, &out);
  out += ",\n  "; Key("dataset", &out); AppendJsonString(report.dataset, &out);
  out += ",\n  "; Key("inputs", &out); out += "[";
  for (size_t i = 0; i < report.inputs.size(); ++i) {
    if (i) out += ", ";
    AppendJsonString(report.inputs[i], &out);
  }
  out += "]";
  out += ",\n  "; Key("rules_sha256", &out); AppendJsonString(report.rules_sha256, &out);
  out += ",\n  "; Key("rows", &out); out += std::to_string(report.rows);
  out += ",\n  "; Key("bad_rows", &out); out += std::to_string(report.bad_rows);
  out += ",\n  "; Key("malformed_rows", &out); out += std::to_string(report.malformed_rows);
  out += ",\n  "; Key("quality_score", &out); AppendNumber(report.quality_score, &out);
  out += ",\n  "; Key("passed", &out); out += report.passed ? "true" : "false";
  out += ",\n  "; Key("schema_errors", &out); out += "[";
  for (size_t i = 0; i < report.schema_errors.size(); ++i) {
    out += i ? ",\n    {" : "\n    {";
    Key("column", &out); AppendJsonString(report.schema_errors[i].column, &out);
    out += ", "; Key("message", &out); AppendJsonString(report.schema_errors[i].message, &out);
    out += "}";
  }
  out += report.schema_errors.empty() ? "]" : "\n  ]";
  out += ",\n  "; Key("checks", &out); out += "[";
  for (size_t i = 0; i < report.checks.size(); ++i) {
    const CheckReport& c = report.checks[i];
    out += i ? ",\n    {" : "\n    {";
    Key("name", &out); AppendJsonString(c.name, &out);
    out += ", "; Key("column", &out); AppendOptionalString(c.column, &out);
    out += ", "; Key("check", &out); AppendJsonString(c.check, &out);
    out += ", "; Key("severity", &out); AppendJsonString(c.severity, &out);
    if (c.is_table) {
      out += ", "; Key("observed", &out); AppendScalar(c.observed, &out);
      if (c.observed.is_null() && (c.observed_text == "nan" || c.observed_text == "inf" || c.observed_text == "-inf")) {
        out += ", "; Key("observed_text", &out); AppendJsonString(c.observed_text, &out);  // JSON has no NaN/inf
      }
      if (!c.min_bound.is_null()) { out += ", "; Key("min", &out); AppendScalar(c.min_bound, &out); }
      if (!c.max_bound.is_null()) { out += ", "; Key("max", &out); AppendScalar(c.max_bound, &out); }
    } else {
      out += ", "; Key("evaluated", &out); out += std::to_string(c.evaluated);
      out += ", "; Key("violations", &out); out += std::to_string(c.violations);
      out += ", "; Key("pass_rate", &out); AppendNumber(c.pass_rate, &out);
      out += ", "; Key("mostly", &out); AppendNumber(c.mostly, &out);
    }
    out += ", "; Key("passed", &out); out += c.passed ? "true" : "false";
    if (!c.message.empty()) { out += ", "; Key("message", &out); AppendJsonString(c.message, &out); }
    if (!c.note.empty()) { out += ", "; Key("note", &out); AppendJsonString(c.note, &out); }
    if (!c.detail_key.empty()) { out += ", "; Key(c.detail_key.c_str(), &out); out += c.detail_json; }
    if (!c.ran_in.empty()) { out += ", "; Key("ran_in", &out); AppendJsonString(c.ran_in, &out); }
    if (!c.ran_in_reason.empty()) { out += ", "; Key("ran_in_reason", &out); AppendJsonString(c.ran_in_reason, &out); }
    if (!c.scope.empty()) { out += ", "; Key("scope", &out); AppendJsonString(c.scope, &out); }
    out += "}";
  }
  out += report.checks.empty() ? "]" : "\n  ]";
  out += ",\n  "; Key("violations", &out); out += "[";
  for (size_t i = 0; i < report.violations.size(); ++i) {
    const ViolationReport& v = report.violations[i];
    out += i ? ",\n    {" : "\n    {";
    Key("row", &out); out += std::to_string(v.row);
    out += ", "; Key("column", &out); AppendOptionalString(v.column, &out);
    out += ", "; Key("check", &out); AppendJsonString(v.check, &out);
    out += ", "; Key("value", &out); AppendScalar(v.value, &out);
    out += ", "; Key("message", &out); AppendJsonString(v.message, &out);
    out += "}";
  }
  out += report.violations.empty() ? "]" : "\n  ]";
  out += ",\n  "; Key("violations_truncated", &out); out += report.violations_truncated ? "true" : "false";
  out += ",\n  "; Key("elapsed_s", &out); AppendNumber(report.elapsed_s, &out);
  if (report.score_min) { out += ",\n  "; Key("score_min", &out); AppendNumber(*report.score_min, &out); }
  if (!report.schema_changes.empty()) {
    out += ",\n  "; Key("schema_changes", &out); out += "[";
    for (size_t i = 0; i < report.schema_changes.size(); ++i) {
      if (i) out += ", ";
      AppendJsonString(report.schema_changes[i], &out);
    }
    out += "]";
  }
  if (report.spill) {
    out += ",\n  "; Key("spill", &out); out += "{"; Key("bytes", &out); out += std::to_string(report.spill->bytes);
    out += ", "; Key("checks", &out); out += "[";
    for (size_t i = 0; i < report.spill->checks.size(); ++i) {
      if (i) out += ", ";
      AppendJsonString(report.spill->checks[i], &out);
    }
    out += "]";
    if (report.spill->passes > 1) {
      out += ", "; Key("passes", &out); out += std::to_string(report.spill->passes);
    }
    out += "}";
  }
  if (!report.table_versions.empty()) {
    out += ",\n  "; Key("table_versions", &out); out += "[";
    for (size_t i = 0; i < report.table_versions.size(); ++i) {
      const Report::TableVersion& t = report.table_versions[i];
      out += i ? ", {" : "{";
      Key("table", &out); AppendJsonString(t.table, &out);
      out += ", "; Key("role", &out); AppendJsonString(t.role, &out);
      out += ", "; Key("version", &out); out += std::to_string(t.version);
      out += "}";
    }
    out += "]";
  }
  if (report.increment) {
    const IncrementReport& inc = *report.increment;
    out += ",\n  "; Key("increment", &out); out += "{";
    Key("column", &out); AppendJsonString(inc.column, &out);
    out += ", "; Key("after", &out); AppendOptionalString(inc.after, &out);
    out += ", "; Key("through", &out); AppendOptionalString(inc.through, &out);
    out += ", "; Key("scope", &out); AppendJsonString(inc.scope, &out);
    out += "}";
  }
  out += "\n}\n";
  return out;
}

}  // namespace griffin
