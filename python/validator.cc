#include "validator.h"

#include <chrono>

#include "exec/engine.h"
#include "record_batch_reader_source.h"
#include "report/json_writer.h"
#include "rules/rule_loader.h"

namespace griffin {
namespace {

std::optional<InputFormat> ParseFormatName(const std::string& name) {
  if (name == "csv") return InputFormat::kCsv;
  if (name == "tsv") return InputFormat::kTsv;
  if (name == "jsonl" || name == "ndjson") return InputFormat::kJsonl;
  if (name == "parquet") return InputFormat::kParquet;
  if (name == "arrow" || name == "ipc" || name == "feather") return InputFormat::kArrow;
  return std::nullopt;
}

// The CLI's read options when no command-line override is given.
ReadOptions MakeReadOptions(const Plan& plan, int64_t batch_rows) {
  ReadOptions options;
  const SourceOptions& source = plan.rules().source;
  if (source.format) options.format = ParseFormatName(*source.format);
  options.delimiter = source.delimiter;
  options.header = source.header;
  options.null_values = source.null_values;
  options.quote = source.quote;
  options.batch_rows = batch_rows;
  options.json_columns = plan.ReferencedColumns();
  return options;
}

Status CheckValidationOptions(const ValidationOptions& options) {
  if (options.max_violations < 0) return Status::UsageError("max_violations: must be 0 or more");
  if (options.threads < 0) return Status::UsageError("threads: must be 0 (all cores) or more");
  if (options.batch_rows < 1) return Status::UsageError("batch_rows: must be at least 1");
  return Status::OK();
}

}  // namespace

Result<std::shared_ptr<const Validator>> Validator::FromRules(const RuleSet& rules) {
  const int64_t now_micros = std::chrono::duration_cast<std::chrono::microseconds>(
                                 std::chrono::system_clock::now().time_since_epoch()).count();
  ASSIGN_OR_RETURN(auto plan, Plan::Compile(rules, now_micros));
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
  ASSIGN_OR_RETURN(std::vector<std::string> inputs, ExpandInputs(paths));
  ASSIGN_OR_RETURN(auto source, OpenInputs(inputs, MakeReadOptions(*plan_, options.batch_rows)));
  return Run(*source, std::move(inputs), options);
}

Result<ValidationResult> Validator::ValidateReader(std::shared_ptr<arrow::RecordBatchReader> reader,
                                                   const std::string& name,
                                                   const ValidationOptions& options) const {
  RETURN_IF_ERROR(CheckValidationOptions(options));
  auto source = MakeRecordBatchReaderSource(std::move(reader), name, options.batch_rows);
  return Run(*source, {name}, options);
}

Result<ValidationResult> Validator::Run(InputSource& source, std::vector<std::string> inputs,
                                        const ValidationOptions& options) const {
  ValidationResult result;
  RunOptions run_options;
  run_options.threads = options.threads;
  run_options.max_violations = options.max_violations;
  if (options.collect_bad_rows) {
    run_options.on_rows = [&result](const RowVerdicts& verdicts) {
      const int64_t rows = verdicts.batch->num_rows;
      for (int64_t r = 0; r < rows; ++r)
        if (verdicts.bad[r]) result.bad_row_indices.push_back(verdicts.base_row + r);
      return Status::OK();
    };
  }
  ASSIGN_OR_RETURN(result.report, RunValidation(plan_, source, run_options));
  result.report.inputs = std::move(inputs);
  result.json = ReportToJson(result.report);
  return result;
}

}  // namespace griffin
