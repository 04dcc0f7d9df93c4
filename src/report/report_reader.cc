#include "report/report_reader.h"

#include <simdjson.h>

#include "util/value_parse.h"

namespace griffin {
namespace {

using simdjson::dom::element;

std::string Text(element e) {
  std::string_view s;
  return e.get_string().get(s) ? std::string() : std::string(s);
}

int64_t Integer(element e) {
  int64_t v = 0;
  if (e.get_int64().get(v)) {
    double d = 0;
    if (!e.get_double().get(d)) v = static_cast<int64_t>(d);
  }
  return v;
}

double Number(element e) {
  double v = 0;
  if (e.get_double().get(v)) return 0;  // not a number: treated as 0
  return v;
}

// A JSON value back into the scalar the writer would print.
JsonScalar Scalar(element e) {
  switch (e.type()) {
    case simdjson::dom::element_type::NULL_VALUE: return JsonScalar::Null();
    case simdjson::dom::element_type::STRING: return JsonScalar::String(Text(e));
    case simdjson::dom::element_type::BOOL: return JsonScalar::Raw(e.get_bool().value() ? "true" : "false");
    case simdjson::dom::element_type::INT64: return JsonScalar::Integer(e.get_int64().value());
    case simdjson::dom::element_type::UINT64: return JsonScalar::Raw(std::to_string(e.get_uint64().value()));
    default: return JsonScalar::Number(Number(e));
  }
}

std::optional<std::string> OptionalText(element object, const char* key) {
  element e;
  if (object[key].get(e) || e.is_null()) return std::nullopt;
  return Text(e);
}

}  // namespace

Result<Report> ReportFromJson(const std::string& json, const std::string& source) {
  simdjson::dom::parser parser;
  element root;
  if (parser.parse(json).get(root) || !root.is_object())
    return Status::InputError(source + ": not a JSON report");
  Report report;
  element e;
  auto field = [&](const char* key) -> bool { return !root[key].get(e); };
  if (field("griffin_version")) report.griffin_version = Text(e);
  if (field("run_id")) report.run_id = Text(e);
  if (field("dataset")) report.dataset = Text(e);
  if (field("rules_sha256")) report.rules_sha256 = Text(e);
  if (field("inputs"))
    for (element input : e.get_array()) report.inputs.push_back(Text(input));
  if (field("rows")) report.rows = Integer(e);
  if (field("bad_rows")) report.bad_rows = Integer(e);
  if (field("malformed_rows")) report.malformed_rows = Integer(e);
  if (field("quality_score")) report.quality_score = Number(e);
  if (field("passed")) report.passed = e.is_bool() && e.get_bool().value();
  if (field("violations_truncated")) report.violations_truncated = e.is_bool() && e.get_bool().value();
  if (field("elapsed_s")) report.elapsed_s = Number(e);
  if (field("score_min") && !e.is_null()) report.score_min = Number(e);
  if (field("schema_changes"))
    for (element change : e.get_array()) report.schema_changes.push_back(Text(change));
  if (field("spill") && e.is_object()) {
    SpillSummary spill;
    element part;
    if (!e["bytes"].get(part)) spill.bytes = Integer(part);
    if (!e["checks"].get(part) && part.is_array())
      for (element name : part.get_array()) spill.checks.push_back(Text(name));
    if (!e["passes"].get(part)) spill.passes = static_cast<int>(Integer(part));
    report.spill = std::move(spill);
  }
  if (field("schema_errors"))
    for (element error : e.get_array())
      report.schema_errors.push_back({OptionalText(error, "column").value_or(""), OptionalText(error, "message").value_or("")});
  if (!field("checks")) return Status::InputError(source + ": not a Griffin report (no checks)");
  for (element c : e.get_array()) {
    CheckReport check;
    check.name = OptionalText(c, "name").value_or("");
    check.column = OptionalText(c, "column");
    check.check = OptionalText(c, "check").value_or("");
    check.severity = OptionalText(c, "severity").value_or("error");
    element v;
    check.is_table = !c["observed"].get(v);
    if (check.is_table) {
      check.observed = Scalar(v);
      check.observed_text = check.observed.is_null() ? OptionalText(c, "observed_text").value_or("null")
                                                     : check.observed.text;
      if (!c["min"].get(v)) check.min_bound = Scalar(v);
      if (!c["max"].get(v)) check.max_bound = Scalar(v);
    } else {
      if (!c["evaluated"].get(v)) check.evaluated = Integer(v);
      if (!c["violations"].get(v)) check.violations = Integer(v);
      if (!c["pass_rate"].get(v)) check.pass_rate = Number(v);
      if (!c["mostly"].get(v)) check.mostly = Number(v);
    }
    if (!c["passed"].get(v)) check.passed = v.is_bool() && v.get_bool().value();
    check.message = OptionalText(c, "message").value_or("");
    check.note = OptionalText(c, "note").value_or("");
    check.ran_in = OptionalText(c, "ran_in").value_or("");
    check.ran_in_reason = OptionalText(c, "ran_in_reason").value_or("");
    for (const char* key : {"drift", "anomaly"}) {  // Griffin's history checks (docs/report.md)
      if (c[key].get(v)) continue;
      check.detail_key = key;
      check.detail_json = simdjson::minify(v);
    }
    report.checks.push_back(std::move(check));
  }
  if (field("violations")) {
    for (element v : e.get_array()) {
      ViolationReport violation;
      element x;
      if (!v["row"].get(x)) violation.row = Integer(x);
      violation.column = OptionalText(v, "column");
      violation.check = OptionalText(v, "check").value_or("");
      if (!v["value"].get(x)) violation.value = Scalar(x);
      violation.message = OptionalText(v, "message").value_or("");
      report.violations.push_back(std::move(violation));
    }
  }
  return report;
}

}  // namespace griffin
