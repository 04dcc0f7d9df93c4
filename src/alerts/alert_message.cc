#include "alerts/alert_message.h"

#include <algorithm>
#include <cmath>

#include "report/json_writer.h"
#include "util/sha256.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

// How many failed checks a body lists (a run may fail hundreds).
constexpr size_t kListedChecks = 20;

bool Wants(const AlertTarget& target, AlertEvent event) {
  return std::find(target.on.begin(), target.on.end(), event) != target.on.end();
}

bool AnyFailed(const Report& report, const char* check) {
  for (const CheckReport& c : report.checks)
    if (c.check == check && !c.passed) return true;
  return false;
}

std::vector<const CheckReport*> FailedChecks(const Report& report) {
  std::vector<const CheckReport*> failed;
  for (const CheckReport& c : report.checks)
    if (!c.passed) failed.push_back(&c);
  return failed;
}

void AppendNumber(std::optional<double> value, std::string* out) {
  if (!value || !std::isfinite(*value)) *out += "null";
  else *out += FormatDouble(*value);
}

std::string SlackText(const Report& report, const std::vector<AlertEvent>& events, std::optional<double> previous) {
  std::string text = "Griffin: dataset *" + report.dataset + "* ";
  text += report.passed ? "passed" : "FAILED";
  text += " (run " + report.run_id.substr(0, 8) + ", " + EventList(events) + "): quality score " +
          FormatDoubleBrief(report.quality_score);
  if (previous) text += " (was " + FormatDoubleBrief(*previous) + ")";
  text += ", " + std::to_string(report.bad_rows) + " bad of " + std::to_string(report.rows) + " rows";
  const std::vector<const CheckReport*> failed = FailedChecks(report);
  for (size_t i = 0; i < failed.size() && i < kListedChecks; ++i) {
    text += "\n• " + failed[i]->name;
    if (!failed[i]->message.empty()) text += ": " + failed[i]->message;
  }
  if (failed.size() > kListedChecks) text += "\n… and " + std::to_string(failed.size() - kListedChecks) + " more";
  return text;
}

}  // namespace

std::string EventList(const std::vector<AlertEvent>& events) {
  std::string list;
  for (AlertEvent event : events) list += (list.empty() ? "" : ",") + std::string(AlertEventName(event));
  return list;
}

std::vector<AlertEvent> RaisedEvents(const AlertTarget& target, const Report& report,
                                     std::optional<double> previous_score) {
  std::vector<AlertEvent> events;
  if (Wants(target, AlertEvent::kFailure) && !report.passed) events.push_back(AlertEvent::kFailure);
  if (Wants(target, AlertEvent::kScoreDrop) && previous_score &&
      *previous_score - report.quality_score >= target.min_score_drop && *previous_score > report.quality_score)
    events.push_back(AlertEvent::kScoreDrop);
  if (Wants(target, AlertEvent::kDrift) && AnyFailed(report, "drift")) events.push_back(AlertEvent::kDrift);
  if (Wants(target, AlertEvent::kAnomaly) && AnyFailed(report, "anomaly")) events.push_back(AlertEvent::kAnomaly);
  return events;
}

std::string AlertBody(AlertTarget::Format format, const Report& report, const std::vector<AlertEvent>& events,
                      std::optional<double> previous_score) {
  std::string out;
  if (format == AlertTarget::Format::kSlack) {
    out = "{\"text\": ";
    AppendJsonString(SlackText(report, events, previous_score), &out);
    return out + "}";
  }
  out = "{\"source\": \"griffin\", \"griffin_version\": ";
  AppendJsonString(GRIFFIN_VERSION, &out);
  out += ", \"events\": [";
  for (size_t i = 0; i < events.size(); ++i) {
    if (i > 0) out += ", ";
    AppendJsonString(AlertEventName(events[i]), &out);
  }
  out += "], \"dataset\": ";
  AppendJsonString(report.dataset, &out);
  out += ", \"run_id\": ";
  AppendJsonString(report.run_id, &out);
  out += std::string(", \"passed\": ") + (report.passed ? "true" : "false") + ", \"quality_score\": ";
  AppendNumber(report.quality_score, &out);
  out += ", \"previous_quality_score\": ";
  AppendNumber(previous_score, &out);
  out += ", \"rows\": " + std::to_string(report.rows) + ", \"bad_rows\": " + std::to_string(report.bad_rows);
  out += ", \"failed_checks\": [";
  const std::vector<const CheckReport*> failed = FailedChecks(report);
  for (size_t i = 0; i < failed.size() && i < kListedChecks; ++i) {
    if (i > 0) out += ", ";
    out += "{\"name\": ";
    AppendJsonString(failed[i]->name, &out);
    out += ", \"check\": ";
    AppendJsonString(failed[i]->check, &out);
    out += ", \"severity\": ";
    AppendJsonString(failed[i]->severity, &out);
    out += ", \"message\": ";
    AppendJsonString(failed[i]->message, &out);
    out += "}";
  }
  out += "], \"failed_check_count\": " + std::to_string(failed.size());
  return out + "}";
}

std::string AlertDedupKey(const std::string& url, const Report& report, const std::vector<AlertEvent>& events) {
  std::string material = url + '\n' + report.dataset + '\n' + EventList(events);
  for (const CheckReport* check : FailedChecks(report)) material += '\n' + check->name;
  return Sha256Hex(material);
}

}  // namespace griffin
