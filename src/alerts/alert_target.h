// One webhook of an `alerts:` section (a rule file's, or `griffin serve
// --config`'s; docs/alerts.md): where to send, in which form, on which events,
// and how hard to try. Loaded by rules/alert_loader.h; sent by
// alerts/alert_dispatcher.h. Header only: the rule loader (griffin_core)
// reads it; sending (libcurl) is in griffin_alerts, the front ends' library.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace griffin {

enum class AlertEvent { kFailure, kScoreDrop, kDrift, kAnomaly };
// "failure", "score_drop", "drift", "anomaly".
inline const char* AlertEventName(AlertEvent event) {
  switch (event) {
    case AlertEvent::kFailure: return "failure";
    case AlertEvent::kScoreDrop: return "score_drop";
    case AlertEvent::kDrift: return "drift";
    case AlertEvent::kAnomaly: return "anomaly";
  }
  return "?";
}

struct AlertTarget {
  std::string url;                 // http:// or https://; empty when url_env names it
  std::string url_env;             // an environment variable holding the URL (keeps the secret out of files)
  enum class Format { kJson, kSlack } format = Format::kJson;
  std::vector<AlertEvent> on = {AlertEvent::kFailure, AlertEvent::kScoreDrop, AlertEvent::kDrift,
                                AlertEvent::kAnomaly};
  double min_score_drop = 0.05;    // score_drop: the previous run's score minus this run's, at least
  double timeout_s = 5;            // one attempt (connect + send + answer)
  int retries = 3;                 // attempts after the first, on a network error, 408, 429 or 5xx
  double backoff_s = 1;            // the wait before the first retry; doubles for each next one
  double deadline_s = 20;          // no attempt starts later than this after the run's report
  double dedup_s = 3600;           // the same alert (dataset, URL, events, failed checks) delivered
                                   // this recently is not sent again; 0: always send
  int line = 0;                    // where it was declared, for messages
};

}  // namespace griffin
