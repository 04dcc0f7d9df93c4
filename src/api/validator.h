// The engine behind griffin.Validator, free of Python: rules compiled once,
// then any number of runs over paths or an Arrow stream. Immutable after
// construction (but for a pool of scratch buffers its calls reuse, which is
// thread-safe), so one Validator may run on several threads at once.
//
// `now` in the rules is fixed when the Validator is built (its plan is
// compiled once), unlike the CLI, whose `now` is each run's start.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/record_batch.h>

#include "exec/batch_result_pool.h"
#include "exec/prior_unique_keys.h"
#include "exec/partial_state.h"
#include "history/history_context.h"
#include "io/input_source.h"
#include "plan/plan.h"
#include "report/report.h"
#include "rules/rule_set.h"
#include "sinks/row_sink.h"
#include "util/status.h"

namespace griffin {

struct ValidationOptions {
  int64_t max_violations = kDefaultMaxViolations;
  int threads = 0;               // 0: all cores
  int64_t batch_rows = 65536;
  // Fill ValidationResult::bad_row_indices, and the per-row errors and raw
  // text of malformed rows (bad_error_offsets, bad_errors, malformed_*).
  bool collect_bad_rows = true;
  // Optional: also receives every batch's row verdicts, in input order, on the
  // validating thread (after the collection above). An error stops the run.
  std::function<Status(const RowVerdicts&)> on_rows;
  // Chunks read ahead (RunOptions::max_in_flight); 1 for streams whose producer
  // waits for each batch's verdicts before sending the next.
  int64_t max_in_flight = 0;
  // Optional: `unique` keys of earlier runs, which this run's duplicates
  // include and its new keys join (exec/prior_unique_keys.h); not owned.
  PriorUniqueKeys* prior_unique = nullptr;
  // A part of a larger input (a Spark partition): its first row's id; rows
  // are numbered from it in the report and bad_row_indices.
  int64_t row_offset = 0;
  // When set, receives the run's partial state (src/exec/partial_state.h),
  // which MergePartials merges with the other parts' into the whole's report.
  std::string* partial_state = nullptr;
  // With partial_state: > 0 moves its `unique` keys into that many shard
  // blobs in partial_key_shards, for a hash shuffle (PartialState::Serialize).
  int key_shards = 0;
  std::vector<std::string>* partial_key_shards = nullptr;
  // Database inputs (docs/sql.md): "scan", "pushdown", or "" for the rule
  // file's source.mode (else scan). Pushdown takes one database URI in
  // ValidatePaths (sql::CheckPushdownInputs); other inputs refuse it.
  std::string mode = "scan";
  // Rules that read increments (source.incremental): the bounds of this run's
  // increment, as api/incremental_run.h's PlanIncrement sets them in a
  // ReadOptions (increment_bounded, increment_after, increment_through). Not
  // set: every row, as without a run store.
  struct IncrementBounds {
    bool bounded = false;
    std::string after, through;
  };
  std::optional<IncrementBounds> increment;
  // Judge the rules' history checks (a column's `drift:`, a table `anomaly:`;
  // history/history_checks.h) against this context once the rows are merged,
  // as griffin validate does; null: they stay "not evaluated". Not owned.
  const HistoryContext* history = nullptr;
  // Profile the drift-checked columns (Report::profile) without judging: for
  // a caller that judges the history checks itself once the run is over
  // (griffin serve, which reads its store then). Implied by `history`.
  bool profile_history = false;
  // Profile every declared column for the run store's record
  // (RunOptions::profile_columns), and read every column of a text input
  // for its schema snapshot: a run that api/recorded_run.h records.
  bool profile_columns = false;
  // With profile_columns: profile every declared column (RunOptions::
  // profile_every_column), not only the drift-checked ones.
  bool profile_every_column = false;
};

struct ValidationResult {
  Report report;                         // run_id empty; inputs as given (ReportToJson renders it)
  std::vector<int64_t> bad_row_indices;  // 0-based input rows that are bad, ascending
  // The error-severity violations of bad_row_indices[i], in check order, are
  // bad_errors[bad_error_offsets[i] .. bad_error_offsets[i + 1]) (as the
  // quarantine output's _griffin_errors; check "malformed" for a malformed row).
  std::vector<int64_t> bad_error_offsets;  // bad_row_indices.size() + 1 entries (when collected)
  std::vector<RowError> bad_errors;
  // Malformed rows (text inputs): their 0-based input rows, ascending, and raw text.
  std::vector<int64_t> malformed_rows;
  std::vector<std::string> malformed_raw;
  // Ran in pushdown mode: only counts and samples were read, so the per-row
  // fields above are empty.
  bool pushdown = false;
};

class Validator {
 public:
  // RuleError / UsageError (exit-2 class) for a bad or unreadable rule file.
  static Result<std::shared_ptr<const Validator>> FromFile(const std::string& path);
  static Result<std::shared_ptr<const Validator>> FromText(const std::string& yaml_text,
                                                           const std::string& display_name);

  // Paths as the CLI takes them (files, directories); read options from the
  // rule file's `source`. In pushdown mode (options.mode), the report is
  // `griffin validate --mode pushdown`'s (sql::RunPushdown).
  Result<ValidationResult> ValidatePaths(const std::vector<std::string>& paths,
                                         const ValidationOptions& options) const;
  // CSV, TSV or JSON lines held in memory (a request body), read in place;
  // the rule file's `source` options apply, `format` overrides its format.
  Result<ValidationResult> ValidateText(std::string_view text, InputFormat format, const std::string& name,
                                        const ValidationOptions& options) const;
  // An Arrow stream, read in place; `name` is the report's input name.
  Result<ValidationResult> ValidateReader(std::shared_ptr<arrow::RecordBatchReader> reader,
                                          const std::string& name, const ValidationOptions& options) const;

  // The same rules compiled again with `now` fixed at `now_micros` (UTC
  // microseconds): for front ends whose every request is a run of its own,
  // whose `now` is that request's start (griffin serve).
  Result<std::shared_ptr<const Validator>> WithNow(int64_t now_micros) const;

  // The report of the parts whose partial states (ValidationOptions::
  // partial_state) are given, as one run over their rows in row-id order
  // (PartialState::MergeAll). InputError for a corrupt state, one of another
  // Griffin version or rule file, or parts whose rows overlap.
  // `row_errors`: as PartialState::MergeAll.
  // `key_duplicates`: for states with sharded keys, MergeKeyShard's output of every shard.
  Result<Report> MergePartials(const std::vector<std::string_view>& states, const std::vector<std::string>& names,
                               std::vector<MergedRowError>* row_errors = nullptr,
                               const std::vector<std::string_view>& key_duplicates = {}) const;

  // One key shard's blobs of every part merged into its duplicates (PartialState::MergeKeyShard).
  Result<std::string> MergeKeyShard(const std::vector<std::string_view>& blobs,
                                    const std::vector<std::string>& names) const {
    return PartialState::MergeKeyShard(plan_, blobs, names);
  }

  // The parts' states merged into one state (PartialState::MergeStates).
  Result<std::string> MergeStates(const std::vector<std::string_view>& states,
                                  const std::vector<std::string>& names) const {
    return PartialState::MergeStates(plan_, states, names);
  }

  const RuleSet& rules() const { return plan_->rules(); }
  const Plan& plan() const { return *plan_; }
  std::shared_ptr<const Plan> shared_plan() const { return plan_; }

  // Rules built in code (e.g. pushdown's fallback rules, pushdown_report.h).
  static Result<std::shared_ptr<const Validator>> FromRules(const RuleSet& rules);

 private:
  explicit Validator(std::shared_ptr<const Plan> plan) : plan_(std::move(plan)) {}
  Result<ValidationResult> RunPushdown(const std::vector<std::string>& paths, const ValidationOptions& options) const;
  Result<ValidationResult> Run(InputSource& source, std::vector<std::string> inputs,
                               const ValidationOptions& options) const;

  std::shared_ptr<const Plan> plan_;
  // Batch results of earlier calls, reused by later ones (thread-safe).
  mutable BatchResultPool result_pool_;
};

}  // namespace griffin
