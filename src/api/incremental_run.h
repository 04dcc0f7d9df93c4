// Incremental runs (`source.incremental: {column: c}` in the rule file): a
// run reads only the rows of its database source whose `c` is past the
// watermark the last recorded run of the dataset left in the run store, up
// to the largest value there now; recording the run moves the watermark
// there (FinishRunRequest::watermarks, in the record's transaction).
//
//   ASSIGN_OR_RETURN(auto increment, PlanIncrement(dataset, inputs, store, &read_options));
//   ... run ...
//   DescribeIncrement(*increment, &report);
//   finish.watermarks = NextWatermarks(*increment);
//
// Without a store (--no-store, or one that could not be opened) there is no
// watermark: every row is read and none is recorded. An incremental rule
// file validates one input at a time (the watermark belongs to that source).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "io/input_source.h"
#include "io/source_registry.h"
#include "report/report.h"
#include "store/run_store.h"
#include "util/status.h"

namespace griffin {

struct IncrementPlan {
  std::string column;
  std::string source;                       // the input as reports show it
  std::optional<WatermarkRecord> after;     // the last recorded run's
  std::optional<SourceWatermark> through;   // the largest value now (null: no row has one)
  bool bounded = false;                     // false: no store, every row read
};

// Sets `options`' increment bounds for the one input. `store` may be null.
Result<IncrementPlan> PlanIncrement(const std::string& dataset, const std::vector<std::string>& inputs,
                                    RunStore* store, ReadOptions* options);
// The same, with the watermark already read from a store (`bounded`) or not:
// for a caller that reads its store elsewhere (griffin serve's reader). The
// store keeps it under (dataset, IncrementSource(input), options->incremental_column).
Result<IncrementPlan> PlanIncrementAfter(std::optional<WatermarkRecord> after, bool bounded,
                                         const std::vector<std::string>& inputs, ReadOptions* options);
// The input as the store keys its watermark (and reports show it): no password.
std::string IncrementSource(const std::string& input);

// The report's "increment" and each table check's "scope".
void DescribeIncrement(const IncrementPlan& plan, Report* report);

// What the run's record sets: the new watermark, when the run read one.
std::vector<WatermarkRecord> NextWatermarks(const IncrementPlan& plan);

}  // namespace griffin
