// `griffin stream --store URI`: committed micro-batches gathered into windows,
// each recorded as one run of the dataset in the run store, so `griffin
// history DATASET` shows the stream.
//
//   StreamWindow window("kafka://h:9092/raw");
//   window.Add(batch_report, offsets);            // after each commit
//   if (window.age_ms() >= window_ms) { RETURN_IF_ERROR(window.Record(*store, rules)); }
//
// The merged report: rows, bad rows, malformed rows and each row-level
// check's evaluated and violations summed over the batches (pass rates and
// verdicts recomputed from the sums); the quality score is clean rows / rows;
// violations listed up to each batch's own limit, their rows numbered through
// the window; table checks are those of the window's last batch (a table
// check sees one micro-batch). The input's lineage is the topic's URI with
// the offsets read per partition in its etag ("p0:0-1200 p1:0-1180": first
// offset to one past the last). Not thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>

#include "report/report.h"
#include "rules/rule_set.h"
#include "store/run_store.h"
#include "util/status.h"

namespace griffin::kafka {

class StreamWindow {
 public:
  explicit StreamWindow(std::string input_uri) : input_uri_(std::move(input_uri)) {}

  // One committed batch: its report and, per input partition, [first offset, last + 1).
  void Add(const Report& batch, const std::map<int32_t, std::pair<int64_t, int64_t>>& offsets);
  bool empty() const { return batches_ == 0; }
  int64_t age_ms() const;
  const Report& merged() const { return merged_; }
  std::string OffsetRanges() const;

  // Records the window as a complete run (origin "stream"), then starts a new one.
  Status Record(RunStore& store, const RuleSet& rules);

 private:
  std::string input_uri_;
  Report merged_;
  int64_t batches_ = 0;
  std::map<int32_t, std::pair<int64_t, int64_t>> offsets_;
  std::chrono::steady_clock::time_point opened_{};
  std::string started_at_;
};

}  // namespace griffin::kafka
