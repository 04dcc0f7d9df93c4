#include "api/recorded_run.h"

#include <filesystem>

#include "plan/read_options.h"
#include "report/json_writer.h"
#include "store/schema_drift.h"
#include "store/store_records.h"

namespace griffin {

Result<std::unique_ptr<RecordedRun>> RecordedRun::Begin(std::shared_ptr<const Validator> validator,
                                                        const std::string& store_uri, std::vector<std::string> inputs,
                                                        const std::string& origin, bool profile_every_column) {
  RETURN_IF_ERROR(CheckRunStoreUri(store_uri));
  std::unique_ptr<RecordedRun> run(new RecordedRun());
  run->ended_ = true;  // nothing to abort until the run has begun
  run->validator_ = std::move(validator);
  run->inputs_ = std::move(inputs);
  run->profile_every_column_ = profile_every_column;
  ASSIGN_OR_RETURN(run->store_, OpenRunStore(store_uri));
  const RuleSet& rules = run->validator_->rules();
  ASSIGN_OR_RETURN(RunTicket ticket, run->store_->BeginRun(MakeBeginRequest(rules, origin)));
  run->run_id_ = ticket.run_id;
  run->ended_ = false;

  const ReadOptions read_options = ReadOptionsFromRules(run->validator_->plan(), ValidationOptions{}.batch_rows);
  run->history_ = HistoryContext{run->store_.get(), "", std::filesystem::path(rules.path).parent_path().string(),
                                 read_options};
  // In-memory data has no watermark column to read past: every row, as without a store.
  if (!rules.source.incremental_column.empty() && !run->inputs_.empty()) {
    ReadOptions read = read_options;
    Result<IncrementPlan> planned = PlanIncrement(rules.dataset, run->inputs_, run->store_.get(), &read);
    if (!planned.ok()) {
      run->Abort(planned.status().message());
      return planned.status();
    }
    run->increment_ = std::move(planned).value();
    run->bounds_ = ValidationOptions::IncrementBounds{read.increment_bounded, read.increment_after,
                                                      read.increment_through};
  }
  return run;
}

RecordedRun::~RecordedRun() {
  if (!ended_) Abort("the run ended before it was recorded");
}

void RecordedRun::Apply(ValidationOptions* options) const {
  options->increment = bounds_;
  options->history = &history_;
  options->profile_columns = true;
  options->profile_every_column = profile_every_column_;
}

Status RecordedRun::Finish(Report* report) {
  if (ended_) return Status::Internal("run " + run_id_ + " was already recorded or aborted");
  ended_ = true;
  report->run_id = run_id_;
  if (increment_) DescribeIncrement(*increment_, report);
  // In-memory data is known by its name only (no size or mtime).
  const std::vector<InputLineage> lineage = inputs_.empty() ? NamedInputs(report->inputs, report->input_rows)
                                                            : DescribeInputs(inputs_, report->input_rows);
  // A schema cache that cannot be written does not stop the record; it is the answer after it.
  const Status cached = UpdateSchemaCache(*store_, validator_->rules().sha256, lineage, report);
  FinishRunRequest finish = MakeFinishRequest(*report, ReportToJson(*report), lineage, {});
  if (increment_) finish.watermarks = NextWatermarks(*increment_);
  Status finished = store_->FinishRun(run_id_, finish);
  if (!finished.ok()) {  // recorded as such, not left "running"
    (void)store_->MarkRecordFailed(run_id_, finished.message());
    return finished;
  }
  return cached;
}

void RecordedRun::Abort(const std::string& why) {
  if (ended_) return;
  ended_ = true;
  (void)store_->AbortRun(run_id_, why);
}

}  // namespace griffin
