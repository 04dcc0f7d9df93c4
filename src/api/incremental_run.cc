#include "api/incremental_run.h"

namespace griffin {

std::string IncrementSource(const std::string& input) { return RedactUri(input); }

Result<IncrementPlan> PlanIncrement(const std::string& dataset, const std::vector<std::string>& inputs,
                                    RunStore* store, ReadOptions* options) {
  std::optional<WatermarkRecord> after;
  if (store && inputs.size() == 1) {
    ASSIGN_OR_RETURN(after, store->Watermark(dataset, IncrementSource(inputs[0]), options->incremental_column));
  }
  return PlanIncrementAfter(std::move(after), store != nullptr, inputs, options);
}

Result<IncrementPlan> PlanIncrementAfter(std::optional<WatermarkRecord> after, bool bounded,
                                         const std::vector<std::string>& inputs, ReadOptions* options) {
  IncrementPlan plan;
  plan.column = options->incremental_column;
  if (inputs.size() != 1)
    return Status::UsageError("source.incremental: an incremental run reads one table or query, got " +
                              std::to_string(inputs.size()) + " inputs");
  plan.source = IncrementSource(inputs[0]);
  plan.after = std::move(after);
  plan.bounded = bounded;
  options->increment_after = plan.after ? plan.after->value : "";
  ASSIGN_OR_RETURN(plan.through, ReadSourceWatermark(inputs[0], *options));
  // Past the stored watermark nothing new: the run reads no row and keeps it.
  options->increment_bounded = plan.bounded;
  options->increment_through = plan.through ? plan.through->value : "";
  return plan;
}

void DescribeIncrement(const IncrementPlan& plan, Report* report) {
  IncrementReport described;
  described.column = plan.column;
  if (plan.after) described.after = plan.after->text;
  if (plan.through) described.through = plan.through->text;
  else if (plan.after) described.through = plan.after->text;  // nothing past it: it stays
  described.scope = plan.after ? "increment" : "table";
  for (CheckReport& check : report->checks)
    if (check.is_table) check.scope = described.scope;
  report->increment = std::move(described);
}

std::vector<WatermarkRecord> NextWatermarks(const IncrementPlan& plan) {
  if (!plan.bounded || !plan.through) return {};
  return {WatermarkRecord{plan.source, plan.column, plan.through->value, plan.through->text}};
}

}  // namespace griffin
