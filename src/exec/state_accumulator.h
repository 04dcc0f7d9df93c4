// Partial states merged one at a time into a live whole (partial_state.h), for
// a producer of parts that never ends: `griffin stream` merges each committed
// micro-batch's state into its window's, without serializing the window again
// per batch.
//
//   StateAccumulator window(plan, PartialState::UniqueScope::kPerPart);
//   ValidationOptions options;  options.partial_state = &bytes;
//   options.row_offset = window.end_row();                 // the parts follow each other
//   ... validate a batch ...
//   RETURN_IF_ERROR(window.Add(bytes, "batch 7"));
//   Report report = window.Finish();                       // as MergeAll of every part
//
// Parts must come in row-id order (each starting at or after end_row()); an
// earlier or overlapping one, a corrupt one, or one of another rule file or
// Griffin version is an InputError and leaves the whole as it was. Finish()
// ends it: Add and Finish after it are refused / empty. Not thread-safe.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "exec/merger.h"
#include "exec/partial_state.h"
#include "plan/plan.h"
#include "report/report.h"
#include "util/status.h"

namespace griffin {

class StateAccumulator {
 public:
  StateAccumulator(std::shared_ptr<const Plan> plan, PartialState::UniqueScope unique,
                   int64_t max_violations = kDefaultMaxViolations);

  Status Add(std::string_view state, const std::string& name);
  int64_t parts() const { return parts_; }
  int64_t rows() const;
  int64_t end_row() const { return end_row_; }   // the next part's first row id
  const Plan& plan() const { return *plan_; }

  // The report of every part added, as one run over their rows.
  Report Finish();

 private:
  std::shared_ptr<const Plan> plan_;
  PartialState::UniqueScope unique_;
  int64_t max_violations_;
  std::unique_ptr<Merger> whole_;
  int64_t parts_ = 0, end_row_ = 0;
  bool finished_ = false;
};

}  // namespace griffin
