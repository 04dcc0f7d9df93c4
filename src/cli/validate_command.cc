#include "cli/validate_command.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <random>

#include <CLI/CLI.hpp>

#include "cli/exit_codes.h"
#include "cli/progress_line.h"
#include "exec/engine.h"
#include "io/input_source.h"
#include "plan/plan.h"
#include "report/json_writer.h"
#include "report/junit_writer.h"
#include "report/text_writer.h"
#include "rules/rule_loader.h"

namespace griffin {
namespace {

std::string NewRunId() {
  std::random_device device;
  std::mt19937_64 generator((static_cast<uint64_t>(device()) << 32) ^ device() ^
                            static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()));
  uint64_t high = generator(), low = generator();
  high = (high & 0xFFFFFFFFFFFF0FFFULL) | 0x4000ULL;        // version 4
  low = (low & 0x3FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL;  // variant
  char text[40];
  std::snprintf(text, sizeof text, "%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(high >> 32),
                static_cast<unsigned>((high >> 16) & 0xFFFF), static_cast<unsigned>(high & 0xFFFF),
                static_cast<unsigned>(low >> 48), static_cast<unsigned long long>(low & 0xFFFFFFFFFFFFULL));
  return text;
}

std::optional<InputFormat> ParseFormatName(const std::string& name) {
  if (name == "csv") return InputFormat::kCsv;
  if (name == "tsv") return InputFormat::kTsv;
  if (name == "jsonl" || name == "ndjson") return InputFormat::kJsonl;
  if (name == "parquet") return InputFormat::kParquet;
  if (name == "arrow" || name == "ipc" || name == "feather") return InputFormat::kArrow;
  return std::nullopt;
}

Result<ReadOptions> MakeReadOptions(const ValidateArgs& args, const RuleSet& rules, const Plan& plan) {
  ReadOptions options;
  const SourceOptions& source = rules.source;
  if (source.format) options.format = ParseFormatName(*source.format);
  options.delimiter = source.delimiter;
  options.header = source.header;
  options.null_values = source.null_values;
  options.quote = source.quote;
  if (!args.input_format.empty()) {
    options.format = ParseFormatName(args.input_format);
    if (!options.format) return Status::UsageError("--input-format: unknown format '" + args.input_format + "'");
  }
  if (!args.delimiter.empty()) {
    std::string d = args.delimiter == "\\t" || args.delimiter == "tab" ? "\t" : args.delimiter;
    if (d.size() != 1) return Status::UsageError("--delimiter: must be one character, got '" + args.delimiter + "'");
    options.delimiter = d[0];
  }
  if (args.no_header) options.header = false;
  if (!args.null_values.empty()) options.null_values = args.null_values;
  if (args.batch_rows < 1) return Status::UsageError("--batch-rows: must be at least 1");
  options.batch_rows = args.batch_rows;
  options.json_columns = plan.ReferencedColumns();
  return options;
}

Status CheckUnsupported(const ValidateArgs& args) {
  // Outputs and the run store are issue #3's; refuse clearly instead of
  // pretending to write or record anything.
  if (!args.quarantine_path.empty() || !args.clean_path.empty())
    return Status::UsageError("--quarantine/--clean: not available in this build yet");
  if (!args.store_uri.empty()) return Status::UsageError("--store: the run store is not available in this build yet");
  return Status::OK();
}

Result<Report> Validate(const ValidateArgs& args, ProgressLine* progress) {
  RETURN_IF_ERROR(CheckUnsupported(args));
  if (args.format != "text" && args.format != "json" && args.format != "junit")
    return Status::UsageError("--format: expected text, json or junit, got '" + args.format + "'");
  if (args.max_violations < 0) return Status::UsageError("--max-violations: must be 0 or more");
  if (args.threads < 0) return Status::UsageError("--threads: must be 0 (all cores) or more");
  ASSIGN_OR_RETURN(RuleSet rules, LoadRuleFile(args.rules_path));
  const int64_t now_micros = std::chrono::duration_cast<std::chrono::microseconds>(
                                 std::chrono::system_clock::now().time_since_epoch()).count();
  ASSIGN_OR_RETURN(auto plan, Plan::Compile(rules, now_micros));
  ASSIGN_OR_RETURN(ReadOptions read_options, MakeReadOptions(args, rules, *plan));
  ASSIGN_OR_RETURN(std::vector<std::string> inputs, ExpandInputs(args.inputs));
  ASSIGN_OR_RETURN(auto source, OpenInputs(inputs, read_options));
  RunOptions run_options;
  run_options.threads = args.threads;
  run_options.max_violations = args.max_violations;
  run_options.progress = [progress](const Progress& p) { progress->Update(p); };
  ASSIGN_OR_RETURN(Report report, RunValidation(plan, *source, run_options));
  report.run_id = NewRunId();
  report.inputs = inputs;
  return report;
}

}  // namespace

CLI::App* AddValidateCommand(CLI::App& app, ValidateArgs* args) {
  CLI::App* cmd = app.add_subcommand("validate", "Check data files against a rule file and report every violation");
  cmd->add_option("-r,--rules", args->rules_path, "The rule file (YAML, rules-v1)")->required();
  cmd->add_option("inputs", args->inputs,
                  "Input files (.csv .tsv .jsonl .parquet .arrow, optionally .gz/.zst), directories of them, "
                  "or - for CSV on standard input")->required();
  cmd->add_option("--format", args->format, "Report format on stdout: text (for people), json, junit")
      ->capture_default_str();
  cmd->add_option("--max-violations", args->max_violations,
                  "How many row violations the report lists (counts are always exact)")->capture_default_str();
  cmd->add_option("--quarantine", args->quarantine_path, "Write every bad row there (not in this build yet)");
  cmd->add_option("--clean", args->clean_path, "Write every good row there (not in this build yet)");
  cmd->add_option("--threads", args->threads, "Worker threads (default: all cores)");
  cmd->add_flag("--no-store", args->no_store, "Do not record the run");
  cmd->add_option("--store", args->store_uri, "Record the run in this store (not in this build yet)");
  cmd->add_option("--batch-rows", args->batch_rows, "Rows per batch (memory ~ batch x threads)")->capture_default_str();
  cmd->add_option("--input-format", args->input_format,
                  "Read inputs as csv|tsv|jsonl|parquet|arrow regardless of extension (overrides source.format)");
  cmd->add_option("--delimiter", args->delimiter, "Field delimiter for CSV (overrides source.delimiter; 'tab' or \\t)");
  cmd->add_flag("--no-header", args->no_header, "CSV/TSV inputs have no header line (columns are column_1..N)");
  cmd->add_option("--null-value", args->null_values, "A spelling of null in text inputs (repeatable; overrides source.null_values)");
  cmd->add_flag("--no-progress", args->no_progress, "Never draw the progress line on a terminal");
  cmd->footer(
      "\nExit status: 0 passed, 1 failed its checks, 2 rule file or command line wrong, 3 input unreadable.\n"
      "\nExamples:\n"
      "  griffin validate -r examples/transactions.rules.yaml examples/transactions.csv\n"
      "  griffin validate -r rules.yaml data/ --format json --max-violations 50 > report.json\n"
      "  zcat part-*.csv.gz | griffin validate -r rules.yaml - --format junit > griffin.xml\n"
      "  griffin validate -r rules.yaml day1.parquet day2.parquet --threads 4\n"
      "\nRule files are described in docs/rules.md; semantics choices in docs/semantics.md.");
  return cmd;
}

int RunValidateCommand(const ValidateArgs& args) {
  ProgressLine progress(!args.no_progress && args.format == "text");
  Result<Report> report = Validate(args, &progress);
  progress.Clear();
  if (!report.ok()) {
    std::fprintf(stderr, "griffin: %s\n", report.status().message().c_str());
    return ExitCodeFor(report.status());
  }
  std::string out;
  if (args.format == "json") out = ReportToJson(*report);
  else if (args.format == "junit") out = ReportToJunit(*report);
  else out = ReportToText(*report, isatty(STDOUT_FILENO));
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  return report->passed ? kExitPassed : kExitFailed;
}

}  // namespace griffin
