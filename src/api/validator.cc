#include "api/validator.h"

#include <chrono>

#include "connectors/sql/pushdown_runner.h"
#include "exec/engine.h"
#include "history/history_checks.h"
#include "io/arrow_source.h"
#include "io/source_registry.h"
#include "plan/read_options.h"
#include "rules/rule_loader.h"
#include "sinks/file_row_sink.h"

namespace griffin {
namespace {

Status CheckValidationOptions(const ValidationOptions& options) {
  if (options.max_violations < 0) return Status::UsageError("max_violations: must be 0 or more");
  if (options.threads < 0 || options.threads > kMaxThreads)
    return Status::UsageError("threads: must be 0 (all cores) to " + std::to_string(kMaxThreads));
  if (options.batch_rows < 1) return Status::UsageError("batch_rows: must be at least 1");
  return Status::OK();
}

// A schema error found after rows [0, report.rows_before_schema_error) were
// collected: those rows become bad too (rules-v1), each with the schema
// errors among its errors (after a malformed entry, before check violations,
// as the merger orders them for later rows).
void MarkEarlierRowsBad(const Report& report, int64_t row_offset, ValidationResult* result) {
  const int64_t late = row_offset + report.rows_before_schema_error;
  std::vector<int64_t> rows, offsets{0};
  std::vector<RowError> errors;
  rows.reserve(static_cast<size_t>(report.rows));
  size_t bad = 0;  // index into result->bad_row_indices
  for (int64_t row = row_offset; row < row_offset + report.rows; ++row) {  // row ids (ValidationOptions::row_offset)
    const bool listed = bad < result->bad_row_indices.size() && result->bad_row_indices[bad] == row;
    size_t e = listed ? static_cast<size_t>(result->bad_error_offsets[bad]) : 0;
    const size_t end = listed ? static_cast<size_t>(result->bad_error_offsets[bad + 1]) : 0;
    if (row < late) {
      for (; e < end && result->bad_errors[e].check == kMalformedCheckName; ++e) errors.push_back(result->bad_errors[e]);
      for (const SchemaError& error : report.schema_errors) errors.push_back({kSchemaCheckName, error.message});
    }
    for (; e < end; ++e) errors.push_back(std::move(result->bad_errors[e]));
    if (listed) ++bad;
    rows.push_back(row);
    offsets.push_back(static_cast<int64_t>(errors.size()));
  }
  result->bad_row_indices = std::move(rows);
  result->bad_error_offsets = std::move(offsets);
  result->bad_errors = std::move(errors);
}

// What the run profiles: for the record (profile_columns, profile_every_column)
// and for the history checks (history, profile_history).
void SetProfiling(const ValidationOptions& options, RunOptions* run_options) {
  run_options->profile_columns = options.profile_columns;
  const bool drift = options.history != nullptr || options.profile_history;
  run_options->table_profiling = !drift                         ? TableProfiling::kNone
                                 : options.profile_every_column ? TableProfiling::kDeclaredColumns
                                                                : TableProfiling::kDriftColumns;
}

// The increment's bounds, when the run reads one (ValidationOptions::increment).
void SetIncrementBounds(const ValidationOptions& options, ReadOptions* read_options) {
  if (!options.increment) return;
  read_options->increment_bounded = options.increment->bounded;
  read_options->increment_after = options.increment->after;
  read_options->increment_through = options.increment->through;
}

}  // namespace

Result<std::shared_ptr<const Validator>> Validator::FromRules(const RuleSet& rules) {
  const int64_t now_micros = std::chrono::duration_cast<std::chrono::microseconds>(
                                 std::chrono::system_clock::now().time_since_epoch()).count();
  ASSIGN_OR_RETURN(auto plan, Plan::Compile(rules, now_micros));
  return std::shared_ptr<const Validator>(new Validator(std::move(plan)));
}

Result<std::shared_ptr<const Validator>> Validator::WithNow(int64_t now_micros) const {
  ASSIGN_OR_RETURN(auto plan, Plan::Compile(plan_->rules(), now_micros));
  return std::shared_ptr<const Validator>(new Validator(std::move(plan)));
}

Result<std::shared_ptr<const Validator>> Validator::FromFile(const std::string& path) {
  ASSIGN_OR_RETURN(RuleSet rules, LoadRuleFile(path));
  return FromRules(rules);
}

Result<std::shared_ptr<const Validator>> Validator::FromText(const std::string& yaml_text,
                                                             const std::string& display_name) {
  ASSIGN_OR_RETURN(RuleSet rules, LoadRuleText(yaml_text, display_name));
  return FromRules(rules);
}

Result<ValidationResult> Validator::ValidatePaths(const std::vector<std::string>& paths,
                                                  const ValidationOptions& options) const {
  RETURN_IF_ERROR(CheckValidationOptions(options));
  if (paths.empty()) return Status::UsageError("no input paths given");
  ASSIGN_OR_RETURN(const bool pushdown, sql::ChoosePushdown(options.mode, plan_->rules()));
  if (pushdown) return RunPushdown(paths, options);
  ASSIGN_OR_RETURN(std::vector<std::string> inputs, ExpandInputs(paths));
  ReadOptions read_options = ReadOptionsFromRules(*plan_, options.batch_rows);
  // A row consumer may read every column. A recorded run's schema snapshot lists
  // every header column from Batch::header_columns, and profiles only rule columns.
  read_options.project_text_columns = !options.on_rows;
  SetIncrementBounds(options, &read_options);
  ASSIGN_OR_RETURN(auto source, OpenInputs(inputs, read_options));
  std::vector<std::string> shown;
  for (const std::string& input : inputs) shown.push_back(RedactUri(input));  // reports never show a password
  ASSIGN_OR_RETURN(ValidationResult result, Run(*source, shown, options));
  for (size_t i = 0; i < inputs.size(); ++i)  // tables (Delta): the version read
    if (std::optional<int64_t> version = TableVersionRead(inputs[i]))
      result.report.table_versions.push_back({shown[i], "input", *version});
  return result;
}

Result<ValidationResult> Validator::RunPushdown(const std::vector<std::string>& paths,
                                                const ValidationOptions& options) const {
  RETURN_IF_ERROR(sql::CheckPushdownInputs(paths, plan_->rules()));
  RunOptions run_options;
  run_options.threads = options.threads;
  run_options.max_violations = options.max_violations;
  SetProfiling(options, &run_options);
  ValidationResult result;
  result.pushdown = true;
  ReadOptions read_options = ReadOptionsFromRules(*plan_, options.batch_rows);
  SetIncrementBounds(options, &read_options);
  ASSIGN_OR_RETURN(result.report, sql::RunPushdown(plan_, paths[0], read_options, run_options,
                                                   sql::PushdownSplit(options.mode, plan_->rules())));
  result.report.inputs = {RedactUri(paths[0])};
  if (options.history) EvaluateHistoryChecks(*plan_, *options.history, &result.report);
  return result;
}

Result<ValidationResult> Validator::ValidateText(std::string_view text, InputFormat format,
                                                 const std::string& name,
                                                 const ValidationOptions& options) const {
  RETURN_IF_ERROR(CheckValidationOptions(options));
  ReadOptions read_options = ReadOptionsFromRules(*plan_, options.batch_rows);
  read_options.format = format;
  // A row consumer may read every column. A recorded run's schema snapshot lists
  // every header column from Batch::header_columns, and profiles only rule columns.
  read_options.project_text_columns = !options.on_rows;
  ASSIGN_OR_RETURN(auto source, OpenTextStream(MakeMemoryStream(text), name, format, read_options, 0,
                                               static_cast<int64_t>(text.size())));
  return Run(*source, {name}, options);
}

Result<ValidationResult> Validator::ValidateReader(std::shared_ptr<arrow::RecordBatchReader> reader,
                                                   const std::string& name,
                                                   const ValidationOptions& options) const {
  RETURN_IF_ERROR(CheckValidationOptions(options));
  ASSIGN_OR_RETURN(const bool pushdown, sql::ChoosePushdown(options.mode.empty() ? "scan" : options.mode, rules()));
  if (pushdown) RETURN_IF_ERROR(sql::CheckPushdownInputs({}, rules()));  // refused: Arrow data is no database
  auto source = OpenRecordBatchReaderSource(std::move(reader), name,
                                            ReadOptionsFromRules(*plan_, options.batch_rows));
  return Run(*source, {name}, options);
}

Result<ValidationResult> Validator::Run(InputSource& source, std::vector<std::string> inputs,
                                        const ValidationOptions& options) const {
  ValidationResult result;
  RunOptions run_options;
  run_options.threads = options.threads;
  run_options.max_violations = options.max_violations;
  run_options.max_in_flight = options.max_in_flight;
  run_options.prior_unique = options.prior_unique;
  run_options.row_offset = options.row_offset;
  run_options.partial_state = options.partial_state;
  run_options.key_shards = options.key_shards;
  run_options.partial_key_shards = options.partial_key_shards;
  run_options.result_pool = &result_pool_;
  SetProfiling(options, &run_options);
  if (options.collect_bad_rows) {
    result.bad_error_offsets.push_back(0);
    run_options.on_rows = [&result, &options](const RowVerdicts& verdicts) {
      const Batch& batch = *verdicts.batch;
      for (size_t i = 0; i < verdicts.bad_rows.size(); ++i) {
        const int32_t r = verdicts.bad_rows[i];
        result.bad_row_indices.push_back(verdicts.base_row + r);
        if (i + 1 < verdicts.error_offsets.size()) {
          for (uint32_t e = verdicts.error_offsets[i]; e < verdicts.error_offsets[i + 1] && e < verdicts.errors.size(); ++e)
            result.bad_errors.push_back(verdicts.errors[e]);
        }
        result.bad_error_offsets.push_back(static_cast<int64_t>(result.bad_errors.size()));
        if (batch.IsMalformed(r)) {
          result.malformed_rows.push_back(verdicts.base_row + r);
          result.malformed_raw.emplace_back(MalformedRawText(batch, r));
        }
      }
      return options.on_rows ? options.on_rows(verdicts) : Status::OK();
    };
  } else if (options.on_rows) {
    run_options.on_rows = options.on_rows;
  }
  ASSIGN_OR_RETURN(result.report, RunValidation(plan_, source, run_options));
  result.report.inputs = std::move(inputs);
  if (options.collect_bad_rows && result.report.rows_before_schema_error > 0) MarkEarlierRowsBad(result.report, options.row_offset, &result);
  if (options.history) EvaluateHistoryChecks(*plan_, *options.history, &result.report);
  return result;
}

Result<Report> Validator::MergePartials(const std::vector<std::string_view>& states,
                                        const std::vector<std::string>& names,
                                        std::vector<MergedRowError>* row_errors,
                                        const std::vector<std::string_view>& key_duplicates) const {
  ASSIGN_OR_RETURN(Report report, PartialState::MergeAll(plan_, states, names, row_errors, key_duplicates));
  report.griffin_version = GRIFFIN_VERSION;
  report.inputs = names;
  return report;
}

}  // namespace griffin
