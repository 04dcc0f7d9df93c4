// `griffin stream`'s window keeping: when the open window (stream_window.h)
// closes, and what closing it does. Used by the stream loop (stream_loop.cc)
// between transactions.
//
//   ASSIGN_OR_RETURN(auto windows, StreamWindows::Open({input_uri, window_ms, metrics, log}, store_uri));
//   if (windows) {                                  // null: no --store and no metrics
//     limit = windows->CutBatch(limit, rules);      // a batch ends where a window of N records ends
//     options.row_offset = windows->next_row();
//     ... judge the batch, commit it ...
//     windows->Add(validator, judged.report, state, offsets, messages);   // closes a full window
//     if (windows->IsDue(rules)) windows->Close(rules);                  // idle: a timed window
//   }
//
// A window closes after N messages (`stream.window: N`, without a
// window_ms), or once it is window_ms old (else the rule file's duration,
// else 60 s), checked at each commit and idle poll; the loop also closes it
// before the rules change and at a stop. Closing records the window as a
// run when there is a store (a failure is logged, the stream goes on) and
// publishes its score when there are metrics. Not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "api/validator.h"
#include "connectors/kafka/stream_metrics.h"
#include "connectors/kafka/stream_window.h"
#include "report/report.h"
#include "rules/rule_set.h"
#include "store/run_store.h"
#include "util/status.h"

namespace griffin::kafka {

class StreamWindows {
 public:
  static constexpr int64_t kDefaultWindowMs = 60000;  // without window_ms or stream.window

  struct Settings {
    std::string input_uri;            // the input topic's URI: the runs' input
    int64_t window_ms = 0;            // --window-s; 0: as the rule file says
    StreamMetrics* metrics = nullptr;  // optional: the window score and count
    std::function<void(const std::string&)> log;  // optional: one line, no newline
  };

  // Windows are kept when there is a store (store_uri not empty) or metrics;
  // with neither, nullptr. An error when the store does not open.
  static Result<std::unique_ptr<StreamWindows>> Open(Settings settings, const std::string& store_uri);

  // The most messages the next batch may hold: `limit`, or fewer where a
  // window of N records ends (at least 1).
  int64_t CutBatch(int64_t limit, const RuleSet& rules) const;
  // The row id the next batch's partial state must start at.
  int64_t next_row() const { return window_.next_row(); }
  // A committed batch joins the window (judged by `validator`: its report and
  // partial state, per input partition [first offset, last + 1), its message
  // count); the window closes when full or due. A state that does not merge is logged.
  void Add(const Validator& validator, const Report& batch, const std::string& state,
           const std::map<int32_t, std::pair<int64_t, int64_t>>& offsets, int64_t messages);
  // A timed window that is open and old enough.
  bool IsDue(const RuleSet& rules) const;
  // Closes the open window, if any: a run in the store and the window metrics.
  void Close(const RuleSet& rules);

 private:
  StreamWindows(Settings settings, std::unique_ptr<RunStore> store)
      : settings_(std::move(settings)), store_(std::move(store)), window_(settings_.input_uri) {}
  // N of a window of N records (the rule file's, without window_ms); 0: timed.
  int64_t WindowRecords(const RuleSet& rules) const;

  Settings settings_;
  std::unique_ptr<RunStore> store_;
  StreamWindow window_;
};

}  // namespace griffin::kafka
