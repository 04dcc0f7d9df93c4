// `griffin stream`'s windows: committed micro-batches gathered until the
// window closes (`stream.window:` in the rule file, or --window-s), then
// evaluated as one run: recorded in the run store (so `griffin history
// DATASET` shows the stream window by window) and its score published as a
// metric.
//
//   StreamWindow window("kafka://h:9092/raw");
//   options.row_offset = window.next_row();  options.partial_state = &state;
//   ... judge the batch, commit it ...
//   RETURN_IF_ERROR(window.Add(validator.shared_plan(), batch_report, state, offsets, messages));
//   if (window.messages() >= 5000) { StreamWindow::Closed closed = window.Close(store.get(), rules); }
//
// The window's report (docs/semantics.md, "Table checks over a window"):
//   - table checks (row_count, null_fraction, distinct_count, mean, stddev,
//     sum, min, max, quantile) are evaluated over the window's merged state:
//     each batch's partial state (exec/partial_state.h) is merged into the
//     window's (exec/state_accumulator.h), so they equal one run over the
//     window's records, as `griffin validate` of a file holding them;
//   - row-level counts (rows, bad rows, each row check's evaluated and
//     violations, the quality score = clean rows / rows) are the batches'
//     sums: what was routed to the clean and dead-letter topics (`unique`
//     keeps its micro-batch or --unique-state scope: no new duplicates are
//     found across the window's batches);
//   - violations: the first of each check in the window (rows numbered
//     through the window, from next_row()).
// The input's lineage is the topic's URI with the offsets read per partition
// in its etag ("p0:0-1200 p1:0-1180": first offset to one past the last).
// The window is in memory only: a validator killed mid-window loses it (the
// restarted one opens a new window at the committed offsets). Not thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "exec/state_accumulator.h"
#include "plan/plan.h"
#include "report/report.h"
#include "rules/rule_set.h"
#include "store/run_store.h"
#include "util/status.h"

namespace griffin::kafka {

class StreamWindow {
 public:
  explicit StreamWindow(std::string input_uri) : input_uri_(std::move(input_uri)) {}

  // The row id the next batch's partial state must start at.
  int64_t next_row() const { return state_ ? state_->end_row() : 0; }

  // One committed batch: the plan that judged it, its report and partial state
  // (rows from next_row()), per input partition [first offset, last + 1), and
  // its message count. An InputError when the state does not merge (it is of
  // another plan: close the window when the rules change); the window is as before.
  Status Add(std::shared_ptr<const Plan> plan, const Report& batch, std::string_view state,
             const std::map<int32_t, std::pair<int64_t, int64_t>>& offsets, int64_t messages);
  bool empty() const { return batches_ == 0; }
  int64_t age_ms() const;
  int64_t messages() const { return messages_; }
  std::string OffsetRanges() const;

  struct Closed {
    Report report;     // the window's report (run_id set when recorded)
    Status recorded;   // the store's answer (OK without a store)
  };
  // Ends the window (it must not be empty): its report, recorded as a
  // complete run (origin "stream") when `store` is set; a new window opens.
  Closed Close(RunStore* store, const RuleSet& rules);

 private:
  Report Merged();

  std::string input_uri_;
  Report summed_;  // row-level sums of the batches' reports
  std::unique_ptr<StateAccumulator> state_;
  int64_t batches_ = 0, messages_ = 0;
  std::map<int32_t, std::pair<int64_t, int64_t>> offsets_;
  std::chrono::steady_clock::time_point opened_{};
  std::string started_at_;
};

}  // namespace griffin::kafka
