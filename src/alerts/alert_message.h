// What an alert says (docs/alerts.md): which of a webhook's events a run
// raised, the body to POST (generic JSON or Slack's {"text": ...}), and the
// key that makes the same alert a duplicate.
//
//   std::vector<AlertEvent> events = RaisedEvents(target, report, previous_score);
//   if (!events.empty()) Post(url, AlertBody(target.format, report, events, previous_score));
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "alerts/alert_target.h"
#include "report/report.h"

namespace griffin {

// The target's events that `report` raises: failure (the run failed), drift
// and anomaly (a check of that kind failed, warn ones included), score_drop
// (`previous_score` - quality_score >= min_score_drop, when there was an
// earlier run).
std::vector<AlertEvent> RaisedEvents(const AlertTarget& target, const Report& report,
                                     std::optional<double> previous_score);

// The JSON body: generic {"source": "griffin", "events": [...], "dataset", "run_id",
// "passed", "quality_score", "previous_quality_score", "rows", "bad_rows",
// "failed_checks": [{"name", "check", "severity", "message"}] (the first 20)},
// or Slack's {"text": "..."}.
std::string AlertBody(AlertTarget::Format format, const Report& report, const std::vector<AlertEvent>& events,
                      std::optional<double> previous_score);

// Same key, same alert: the URL, the dataset, the events and the names of
// the failed checks (sha256 hex; the URL is never stored in the clear).
std::string AlertDedupKey(const std::string& url, const Report& report, const std::vector<AlertEvent>& events);

// "failure,drift".
std::string EventList(const std::vector<AlertEvent>& events);

}  // namespace griffin
