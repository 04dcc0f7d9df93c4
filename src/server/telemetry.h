// The training-telemetry checks of a rule file's `training:` section
// (rules/rule_set.h TrainingRules) applied to one POST /metrics step, with
// the loss history that spike checks compare against.
//
// History is kept per series key (the service uses dataset, API key id and
// the request's optional "run") and per reported value, as the last `window`
// finite values. Steps: a step equal to the last one replaces its value (a
// retried request); a smaller step starts the history over (a restarted
// job). At most `max_series` series keys are kept, the least recently used
// dropped. Thread-safe.
#pragma once

#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "rules/rule_set.h"

namespace griffin::server {

struct TelemetryInput {
  std::optional<int64_t> step;
  bool loss_given = false;                 // the request had a non-null "loss"
  double loss = 0;
  std::map<std::string, double> metrics;   // the request's non-null metrics
};

struct TelemetryVerdict {
  int evaluated = 0;                 // error-severity checks that applied to this step
  int failed = 0;                    // of those, the ones that failed
  std::vector<std::string> reasons;  // every failed check in file order; warn ones end in " (warn)"
  // (evaluated - failed) / evaluated, 1.0 when nothing was evaluated.
  double score() const { return evaluated == 0 ? 1.0 : static_cast<double>(evaluated - failed) / evaluated; }
};

class TelemetryTracker {
 public:
  explicit TelemetryTracker(size_t max_series) : max_series_(max_series) {}

  // Checks `input` against `rules` and adds its values to the history of `series_key`.
  TelemetryVerdict Check(const TrainingRules& rules, const std::string& series_key, const TelemetryInput& input);

  size_t series() const;

 private:
  struct History {
    std::deque<double> values;
    std::optional<int64_t> last_step;
  };
  using Series = std::map<std::string, History>;  // by reported value name
  using Entry = std::pair<std::string, Series>;

  Series& SeriesFor(const std::string& series_key);  // under mutex_

  size_t max_series_;
  mutable std::mutex mutex_;
  std::list<Entry> order_;  // most recent first
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
};

}  // namespace griffin::server
