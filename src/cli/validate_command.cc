#include "cli/validate_command.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <CLI/CLI.hpp>

#include "alerts/alert_dispatcher.h"
#include "cli/exit_codes.h"
#include "api/incremental_run.h"
#include "cli/progress_line.h"
#include "cli/read_args.h"
#include "cli/spark_submit.h"
#include "exec/engine.h"
#include "history/history_checks.h"
#include "io/input_format.h"
#include "io/input_source.h"
#include "io/parquet_codec.h"
#include "io/source_registry.h"
#include "plan/plan.h"
#include "plan/plan_explain.h"
#include "rules/where_predicate.h"
#include "plan/read_options.h"
#include "report/json_writer.h"
#include "report/junit_writer.h"
#include "report/text_writer.h"
#include "rules/alert_loader.h"
#include "rules/rule_loader.h"
#include "store/schema_drift.h"
#include "cli/standard_streams.h"
#include "store/store_records.h"
#include "cli/validate_html.h"
#include "connectors/sql/pushdown_runner.h"
#include "sinks/output_guard.h"
#include "sinks/output_pipeline.h"
#include "sinks/row_sink.h"
#include "store/run_store.h"
#include "util/byte_size.h"
#include "util/count_of.h"

namespace griffin {
namespace {

Result<ReadOptions> MakeReadOptions(const ValidateArgs& args, const Plan& plan) {
  if (args.batch_rows < 1) return Status::UsageError("--batch-rows: must be at least 1");
  ReadOptions options = ReadOptionsFromRules(plan, args.batch_rows);
  RETURN_IF_ERROR(ApplyReadArgs(args.input_format, args.delimiter, args.no_header, args.null_values, &options));
  if (!args.where.empty()) options.where = args.where;  // checked in Prepare (CheckWhereOption)
  options.query = args.query;
  // Rows written to --clean/--quarantine keep every column of the source.
  options.project_columns = args.clean_path.empty() && args.quarantine_path.empty();
  return options;
}

// --clean and --quarantine never name an input, the rule file or each other
// (by any path: same device and inode); checked before anything is written.
Status RefuseOutputsOverRunFiles(const ValidateArgs& args, const std::vector<std::string>& inputs) {
  std::vector<GuardedFile> guarded = {{"rule file", args.rules_path}};
  for (const std::string& input : inputs) guarded.push_back({"input", input});
  RETURN_IF_ERROR(RefuseOutputOverFiles("--clean", args.clean_path, guarded));
  RETURN_IF_ERROR(RefuseOutputOverFiles("--quarantine", args.quarantine_path, guarded));
  guarded.push_back({"--clean file", args.clean_path});
  guarded.push_back({"--quarantine file", args.quarantine_path});
  RETURN_IF_ERROR(RefuseOutputOverFiles("--html", args.html_path, guarded));
  return RefuseOutputOverFiles("--clean", args.clean_path, {{"--quarantine file", args.quarantine_path}});
}

// Everything a run needs before it reads data; errors here are exit 2 or 3.
struct PreparedRun {
  int64_t memory_limit = 0;
  std::string tmp_dir;
  bool pushdown = false;  // --mode pushdown (or source.mode)
  RuleSet rules;
  std::shared_ptr<const Plan> plan;
  ReadOptions read_options;
  std::vector<std::string> inputs;
};

// --mode (else the rule file's source.mode, else scan); pushdown takes one
// database input and writes no per-row outputs.
Status ChooseMode(const ValidateArgs& args, PreparedRun* prepared) {
  ASSIGN_OR_RETURN(prepared->pushdown, sql::ChoosePushdown(args.mode, prepared->rules));
  if (!prepared->pushdown) return Status::OK();
  RETURN_IF_ERROR(sql::CheckPushdownInputs(prepared->inputs, prepared->rules));
  if (!args.clean_path.empty() || !args.quarantine_path.empty())
    return Status::UsageError("--mode pushdown writes no rows: --clean and --quarantine need --mode scan");
  return Status::OK();
}

Result<PreparedRun> Prepare(const ValidateArgs& args) {
  if (args.format != "text" && args.format != "json" && args.format != "junit")
    return Status::UsageError("--format: expected text, json or junit, got '" + args.format + "'");
  if (args.max_violations < 0) return Status::UsageError("--max-violations: must be 0 or more");
  if (!args.where.empty()) RETURN_IF_ERROR(CheckWhereOption(args.where));
  if (args.threads < 0 || args.threads > kMaxThreads)
    return Status::UsageError("--threads: must be 0 (all cores) to " + std::to_string(kMaxThreads) + ", got " +
                              std::to_string(args.threads));
  if (args.no_store && !args.store_uri.empty()) return Status::UsageError("--no-store and --store exclude each other");
  if (!args.store_uri.empty()) RETURN_IF_ERROR(CheckRunStoreUri(args.store_uri));
  if (args.tag_version && args.no_store)
    return Status::UsageError("--tag-version: the version comes from the run store, which --no-store turns off");
  if (args.tag_version && args.clean_path.empty()) return Status::UsageError("--tag-version tags --clean output; give --clean");
  if (args.store_profiles == "all" && args.no_store)
    return Status::UsageError("--store-profiles all: profiles go to the run store, which --no-store turns off");
  if (!args.clean_path.empty() && args.clean_path == args.quarantine_path)
    return Status::UsageError("--clean and --quarantine must be different files");
  if (!args.parquet_compression.empty()) {
    if (!ParquetCodecNamed(args.parquet_compression))
      return Status::UsageError("--parquet-compression: expected snappy, zstd, lz4 or none, got '" +
                                args.parquet_compression + "'");
    if (!WritesParquetPages(args.clean_path) && !WritesParquetPages(args.quarantine_path))
      return Status::UsageError("--parquet-compression: neither --clean nor --quarantine is a Parquet output or a Delta table");
  }
  if (!args.html_path.empty() && (args.html_path == args.clean_path || args.html_path == args.quarantine_path))
    return Status::UsageError("--html must be another file than --clean and --quarantine");
  PreparedRun prepared;
  auto memory_limit = ParseByteSize(args.memory_limit);
  if (!memory_limit.ok()) return Status::UsageError("--memory-limit: " + memory_limit.status().message());
  prepared.memory_limit = *memory_limit;
  prepared.tmp_dir = args.tmp_dir;
  if (!prepared.tmp_dir.empty()) {
    struct stat info;
    if (::stat(prepared.tmp_dir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode) ||
        ::access(prepared.tmp_dir.c_str(), W_OK | X_OK) != 0)
      return Status::UsageError("--tmp-dir " + prepared.tmp_dir + ": not a writable directory");
  } else {
    const char* tmpdir = std::getenv("TMPDIR");
    prepared.tmp_dir = tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp";
  }
  ASSIGN_OR_RETURN(prepared.rules, LoadRuleFile(args.rules_path));
  const int64_t now_micros = std::chrono::duration_cast<std::chrono::microseconds>(
                                 std::chrono::system_clock::now().time_since_epoch()).count();
  ASSIGN_OR_RETURN(prepared.plan, Plan::Compile(prepared.rules, now_micros));
  ASSIGN_OR_RETURN(prepared.read_options, MakeReadOptions(args, *prepared.plan));
  ASSIGN_OR_RETURN(prepared.inputs, ExpandInputs(args.inputs));
  RETURN_IF_ERROR(RefuseOutputsOverRunFiles(args, prepared.inputs));
  RETURN_IF_ERROR(ChooseMode(args, &prepared));
  return prepared;
}

// The clean and quarantine files of a run (either may be absent). Rows are
// encoded on `threads` workers and appended in order (sinks/output_pipeline.h).
class Outputs {
 public:
  Status Open(const ValidateArgs& args, std::optional<int64_t> version, char input_delimiter,
              const std::vector<std::string>& inputs, const std::string& temp_dir) {
    pipeline_.reset();
    SinkOptions options;
    options.input_delimiter = input_delimiter;
    for (const std::string& input : inputs) options.input_names.push_back(input == "-" ? "<stdin>" : RedactUri(input));
    options.csv_delimiter = input_delimiter;
    options.hash_output = !args.no_store;  // the hash is lineage, which only the store keeps
    if (!args.parquet_compression.empty()) options.parquet_codec = *ParquetCodecNamed(args.parquet_compression);
    options.temp_dir = temp_dir;
    if (!args.quarantine_path.empty()) {
      ASSIGN_OR_RETURN(quarantine_, OpenRowSink(args.quarantine_path, SinkKind::kQuarantine, options));
    }
    if (!args.clean_path.empty()) {
      // Clean rows are the input's rows: _griffin_version only when asked for.
      if (args.tag_version) options.version_tag = version;
      ASSIGN_OR_RETURN(clean_, OpenRowSink(args.clean_path, SinkKind::kClean, options));
    }
    std::vector<RowSink*> sinks;
    for (auto* sink : {&quarantine_, &clean_})
      if (*sink) sinks.push_back(sink->get());
    if (!sinks.empty()) pipeline_ = std::make_unique<OutputPipeline>(std::move(sinks), ResolveThreads(args.threads));
    return Status::OK();
  }
  bool any() const { return quarantine_ || clean_; }
  Status Write(const RowVerdicts& verdicts) { return pipeline_->Write(verdicts); }
  Status Finish() { return pipeline_ ? pipeline_->Finish() : Status::OK(); }
  Result<std::vector<OutputSummary>> Commit() {
    RETURN_IF_ERROR(Finish());
    pipeline_.reset();
    std::vector<OutputSummary> summaries;
    for (auto* sink : {&quarantine_, &clean_}) {
      if (!*sink) continue;
      ASSIGN_OR_RETURN(OutputSummary summary, (*sink)->Commit());
      summaries.push_back(std::move(summary));
    }
    return summaries;
  }
  void Abort() {
    pipeline_.reset();  // waits for running encodes, which read the sinks
    if (quarantine_) quarantine_->Abort();
    if (clean_) clean_->Abort();
  }

 private:
  std::unique_ptr<RowSink> quarantine_, clean_;
  std::unique_ptr<OutputPipeline> pipeline_;  // after the sinks: destroyed first
};

// Opens --clean/--quarantine for the run (again after Abort, when a run reads
// its inputs a second time), with the run's version tag and CSV delimiter.
Status OpenOutputs(const ValidateArgs& args, const PreparedRun& prepared, const std::optional<RunTicket>& ticket,
                   Outputs* outputs) {
  const char delimiter = prepared.read_options.delimiter.value_or(
      prepared.read_options.format == InputFormat::kTsv ? '\t' : ',');
  return outputs->Open(args, ticket ? std::optional<int64_t>(ticket->version) : std::nullopt, delimiter,
                       prepared.inputs, prepared.tmp_dir);
}

// Writes the outputs again after a schema error that was found only after
// some rows had gone to --clean (a later input, a later batch, or a JSON
// lines column that appears in no line): a second pass over the inputs with
// the schema errors known from its first row, so every row lands in
// --quarantine, in order. Standard input cannot be read twice: then the
// outputs are not written at all (an error, exit 3), never written wrong.
Status RewriteOutputsForSchemaError(const ValidateArgs& args, const PreparedRun& prepared,
                                    const std::optional<RunTicket>& ticket, RunOptions run_options,
                                    const Report& report, Outputs* outputs) {
  const SchemaError& first = report.schema_errors.front();
  for (const std::string& input : prepared.inputs) {
    if (input != "-") continue;
    return Status::InputError("<stdin>: schema error (" + first.column + ": " + first.message + ") found after row " +
                              std::to_string(report.rows_before_schema_error) +
                              "; standard input cannot be read again to send the rows already judged clean to "
                              "--quarantine, so neither --clean nor --quarantine was written (validate a file instead)");
  }
  outputs->Abort();
  RETURN_IF_ERROR(OpenOutputs(args, prepared, ticket, outputs));
  run_options.known_schema_errors = report.schema_errors;
  run_options.progress = nullptr;
  run_options.profile_columns = false;
  run_options.table_profiling = TableProfiling::kNone;
  ASSIGN_OR_RETURN(auto source, OpenInputs(prepared.inputs, prepared.read_options));
  ASSIGN_OR_RETURN(Report again, RunValidation(prepared.plan, *source, run_options));
  if (again.rows != report.rows)
    return Status::InputError("the inputs changed while they were read twice (" + CountOf(report.rows, "row") +
                              ", then " + std::to_string(again.rows) + "); no outputs were written");
  return Status::OK();
}

// Standard input cannot be read twice; every other input can.
bool InputsReadTwice(const std::vector<std::string>& inputs) {
  return std::find(inputs.begin(), inputs.end(), "-") == inputs.end();
}

// A run with outputs whose `unique` state would pass --memory-limit (the
// first try stopped there with kResourceLimit): its verdicts leave batch by
// batch, so the state cannot spill in that run. The outputs written so far
// are dropped, and the inputs are read twice. The first pass writes no
// output: it spills as a plain run does, and logs every `unique` repeat (its
// row and first row) to unnamed files under --tmp-dir. The second pass
// writes the outputs and takes each `unique` verdict from those logs, with no
// key state, and knows the schema errors from the first row on. Its report
// is the run's, with the first pass's spill summary and passes 2.
Result<Report> RunUniqueInTwoPasses(const ValidateArgs& args, const PreparedRun& prepared,
                                    const std::optional<RunTicket>& ticket, const RunOptions& run_options,
                                    Outputs* outputs, ProgressLine* progress) {
  progress->Clear();
  std::fprintf(stderr,
               "griffin: the unique state would pass --memory-limit %s in a run that writes --clean/--quarantine: "
               "reading the inputs twice (the first pass spills and finds the repeats, the second writes the "
               "outputs)\n",
               FormatByteSize(prepared.memory_limit).c_str());
  outputs->Abort();
  RETURN_IF_ERROR(OpenOutputs(args, prepared, ticket, outputs));
  RunOptions first = run_options;
  first.on_rows = nullptr;
  first.on_rows_done = nullptr;
  first.profile_columns = false;
  first.table_profiling = TableProfiling::kNone;
  UniqueRepeatLogs logs;
  first.unique_repeats_out = &logs;
  ReadOptions first_read = prepared.read_options;
  first_read.project_text_columns = true;
  ASSIGN_OR_RETURN(auto first_source, OpenInputs(prepared.inputs, first_read));
  ASSIGN_OR_RETURN(Report counted, RunValidation(prepared.plan, *first_source, first));
  first_source.reset();

  RunOptions second = run_options;
  second.known_unique_repeats = std::move(logs);
  second.known_schema_errors = counted.schema_errors;
  ReadOptions second_read = prepared.read_options;
  second_read.project_text_columns = false;
  ASSIGN_OR_RETURN(auto second_source, OpenInputs(prepared.inputs, second_read));
  ASSIGN_OR_RETURN(Report report, RunValidation(prepared.plan, *second_source, second));
  if (report.rows != counted.rows)
    return Status::InputError("the inputs changed while they were read twice (" + CountOf(counted.rows, "row") +
                              ", then " + std::to_string(report.rows) + "); no outputs were written");
  SpillSummary spill = counted.spill.value_or(SpillSummary{});
  spill.passes = 2;
  report.spill = std::move(spill);
  report.elapsed_s += counted.elapsed_s;
  return report;
}

void PrintError(const Status& status) { std::fprintf(stderr, "griffin: %s\n", status.message().c_str()); }

}  // namespace

int RunValidateCommand(const ValidateArgs& args) {
  if (args.engine == "spark") return ExecSparkSubmit(args);
  if (!args.master.empty() || !args.keys.empty()) {
    PrintError(Status::UsageError(std::string(args.master.empty() ? "--key" : "--master") + ": only with --engine spark"));
    return kExitUsage;
  }
  Result<PreparedRun> prepared = Prepare(args);
  if (!prepared.ok()) {
    PrintError(prepared.status());
    return ExitCodeFor(prepared.status());
  }
  if (args.explain) {
    std::cout << ExplainPlan(*prepared->plan);
    if (prepared->pushdown) {
      Result<std::string> plan = sql::ExplainPushdown(*prepared->plan, prepared->inputs[0],
                                                      sql::PushdownSplit(args.mode, prepared->rules));
      if (!plan.ok()) {
        PrintError(plan.status());
        return ExitCodeFor(plan.status());
      }
      std::cout << *plan;
    }
    return kExitPassed;
  }
  const std::string run_id = NewRunId();

  // The store: a failure here never stops validation; it is reported after the
  // report, with exit status 3.
  Status store_status;
  std::unique_ptr<RunStore> store;
  std::optional<RunTicket> ticket;
  if (!args.no_store) {
    auto opened = OpenRunStore(args.store_uri.empty() ? DefaultStoreUri() : args.store_uri);
    if (opened.ok()) {
      store = std::move(opened).value();
      BeginRunRequest begin = MakeBeginRequest(prepared->rules, "cli");
      begin.run_id = run_id;
      auto started = store->BeginRun(begin);
      if (started.ok()) ticket = *started;
      else store_status = started.status();
    } else {
      store_status = opened.status();
    }
  }

  // source.incremental: the rows past the stored watermark (every row without a store).
  std::optional<IncrementPlan> increment;
  if (!prepared->read_options.incremental_column.empty()) {
    Result<IncrementPlan> planned = PlanIncrement(prepared->rules.dataset, prepared->inputs,
                                                  store && ticket ? store.get() : nullptr, &prepared->read_options);
    if (!planned.ok()) {
      if (store && ticket) (void)store->AbortRun(run_id, planned.status().message());
      PrintError(planned.status());
      return ExitCodeFor(planned.status());
    }
    increment = std::move(planned).value();
  }

  Outputs outputs;
  Status output_status;
  if (args.tag_version && !ticket) {
    output_status = Status::StoreError("--tag-version: no version could be assigned, so no outputs were written");
  } else {
    output_status = OpenOutputs(args, *prepared, ticket, &outputs);
  }
  if (!output_status.ok() && output_status.code() != StatusCode::kStoreError) {
    if (store && ticket) (void)store->AbortRun(run_id, output_status.message());
    PrintError(output_status);
    return ExitCodeFor(output_status);
  }

  ProgressLine progress(!args.no_progress && args.format == "text");
  RunOptions run_options;
  run_options.threads = args.threads;
  run_options.max_violations = args.max_violations;
  run_options.memory_limit = prepared->memory_limit;
  run_options.tmp_dir = prepared->tmp_dir;
  run_options.progress = [&progress](const Progress& p) { progress.Update(p); };
  run_options.profile_columns = ticket.has_value();
  run_options.table_profiling = ticket.has_value() && args.store_profiles == "all"
                                    ? TableProfiling::kDeclaredColumns
                                    : TableProfiling::kDriftColumns;  // the drift-checked columns, if any
  if (outputs.any()) {
    run_options.on_rows = [&outputs](const RowVerdicts& v) { return outputs.Write(v); };
    run_options.on_rows_done = [&outputs] { return outputs.Finish(); };
  }

  Result<Report> report = [&]() -> Result<Report> {
    if (prepared->pushdown) {
      RunOptions pushdown_options = run_options;
      pushdown_options.progress = nullptr;
      return sql::RunPushdown(prepared->plan, prepared->inputs[0], prepared->read_options, pushdown_options,
                              sql::PushdownSplit(args.mode, prepared->rules));
    }
    ReadOptions read_options = prepared->read_options;
    // Outputs write whole rows: they need every column decoded. A recorded run's
    // schema snapshot lists every header column from Batch::header_columns.
    read_options.project_text_columns = !outputs.any();
    // With outputs a `unique` state cannot spill: past the limit the run stops
    // and reads its inputs twice instead, when it can.
    RunOptions first_try = run_options;
    const bool two_passes_possible = outputs.any() && prepared->memory_limit > 0 && InputsReadTwice(prepared->inputs);
    if (two_passes_possible) first_try.unique_over_limit = UniqueOverLimit::kStop;
    Result<Report> tried = [&]() -> Result<Report> {
      ASSIGN_OR_RETURN(auto source, OpenInputs(prepared->inputs, read_options));
      return RunValidation(prepared->plan, *source, first_try);
    }();
    if (tried.ok() || tried.status().code() != StatusCode::kResourceLimit || !two_passes_possible) return tried;
    return RunUniqueInTwoPasses(args, *prepared, ticket, run_options, &outputs, &progress);
  }();
  progress.Clear();
  if (report.ok() && outputs.any() && report->rows_before_schema_error > 0) {
    // A schema error found after rows went to --clean: every row is bad.
    output_status = RewriteOutputsForSchemaError(args, *prepared, ticket, run_options, *report, &outputs);
    if (!output_status.ok()) outputs.Abort();
  }
  if (!report.ok()) {
    outputs.Abort();
    if (store && ticket) (void)store->AbortRun(run_id, report.status().message());
    PrintError(report.status());
    return ExitCodeFor(report.status());
  }
  report->run_id = run_id;
  if (report->unspillable_state_bytes > 0) {  // the limit did not hold: say so, the run goes on
    std::fprintf(stderr,
                 "griffin: warning: unique state grew to %s, past --memory-limit %s: it cannot spill in a run that "
                 "writes --clean or --quarantine from standard input (every verdict leaves batch by batch, and "
                 "standard input cannot be read twice; docs/engine.md)\n",
                 FormatByteSize(report->unspillable_state_bytes).c_str(), FormatByteSize(prepared->memory_limit).c_str());
  }
  HistoryContext history{store && ticket ? store.get() : nullptr,
                         args.no_store ? "--no-store was given" : "the store could not be used",
                         std::filesystem::path(prepared->rules.path).parent_path().string(), prepared->read_options};
  EvaluateHistoryChecks(*prepared->plan, history, &*report);
  for (const std::string& input : prepared->inputs) {
    report->inputs.push_back(RedactUri(input));
    if (std::optional<int64_t> version = TableVersionRead(input))
      report->table_versions.push_back({RedactUri(input), "input", *version});
  }
  if (increment) DescribeIncrement(*increment, &*report);

  Result<std::vector<OutputSummary>> committed =
      output_status.ok() ? outputs.Commit() : Result<std::vector<OutputSummary>>(std::vector<OutputSummary>{});
  if (!committed.ok()) {
    outputs.Abort();
    if (store && ticket) (void)store->AbortRun(run_id, committed.status().message());
    PrintError(committed.status());
    return kExitInput;
  }
  for (const OutputSummary& o : *committed)
    if (o.table_version >= 0) report->table_versions.push_back({RedactUri(o.path), o.kind, o.table_version});
  // Lineage goes to the store only (an object's costs a request to its store).
  const std::vector<InputLineage> lineage =
      store && ticket ? DescribeInputs(prepared->inputs, report->input_rows) : std::vector<InputLineage>{};
  if (store && ticket) {
    Status cached = UpdateSchemaCache(*store, prepared->rules.sha256, lineage, &*report);
    if (!cached.ok()) store_status = cached;
  }
  const std::string json = ReportToJson(*report);
  if (store && ticket) {
    FinishRunRequest finish = MakeFinishRequest(*report, json, lineage, *committed);
    if (increment) finish.watermarks = NextWatermarks(*increment);
    Status finished = store->FinishRun(run_id, finish);
    if (!finished.ok()) {  // recorded as such, not left "running"
      store_status = finished;
      (void)store->MarkRecordFailed(run_id, finished.message());
    }
  }

  // Alerts go out on their own thread while the report is written, and are
  // waited for (bounded) before exiting; they never change the exit status.
  std::unique_ptr<AlertDispatcher> alerts;
  Result<std::vector<AlertTarget>> loaded_alerts = LoadRuleFileAlerts(prepared->rules);  // checked at load
  const std::vector<AlertTarget> alert_targets = loaded_alerts.ok() ? *loaded_alerts : std::vector<AlertTarget>{};
  if (!alert_targets.empty()) {
    const std::string alert_store =
        store && ticket && store_status.ok() ? (args.store_uri.empty() ? DefaultStoreUri() : args.store_uri) : "";
    alerts = std::make_unique<AlertDispatcher>(alert_store, [](const std::string& line) {
      std::fprintf(stderr, "griffin: %s\n", line.c_str());
    });
    alerts->Submit(AlertJob{alert_targets, *report});
  }
  const auto wait_for_alerts = [&] {
    if (!alerts) return;
    std::fflush(stdout);  // the report is out before any wait
    double bound = 0;
    for (const AlertTarget& target : alert_targets) bound += target.deadline_s + target.timeout_s;
    alerts->Close(std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(bound)));
  };

  std::string out;
  if (args.format == "json") out = json;
  else if (args.format == "junit") out = ReportToJunit(*report);
  else out = ReportToText(*report, isatty(STDOUT_FILENO));
  const Status written = WriteWhole(stdout, out, "standard output");
  if (!written.ok()) {  // the report is lost: that is the error to report, exit 3
    wait_for_alerts();
    PrintError(written);
    return kExitInput;
  }
  if (!args.html_path.empty()) {
    ValidateHtmlInput html{&*report, prepared->inputs, prepared->read_options, args.threads, {}, nullptr,
                           args.no_store ? "Run with --no-store: no history." : "The run store was not available."};
    for (const ColumnRule& column : prepared->rules.columns) html.columns.push_back(column.name);
    if (store && ticket && store_status.ok()) html.store = store.get();
    const Status html_written = WriteValidateHtml(args.html_path, html);
    if (!html_written.ok()) {
      wait_for_alerts();
      PrintError(html_written);
      return kExitInput;
    }
  }
  wait_for_alerts();
  if (!output_status.ok()) store_status = output_status;
  if (!store_status.ok()) {
    PrintError(store_status);
    return kExitInput;
  }
  return report->passed ? kExitPassed : kExitFailed;
}

CLI::App* AddValidateCommand(CLI::App& app, ValidateArgs* args) {
  CLI::App* cmd = app.add_subcommand("validate", "Check data files against a rule file and report every violation");
  cmd->add_option("-r,--rules", args->rules_path, "The rule file (YAML, rules-v1)")->required();
  cmd->add_option("inputs", args->inputs,
                  kInputsHelp)->required();
  cmd->add_option("--html", args->html_path,
                  "Also write the run as one self-contained HTML page there: verdict, checks, violations, "
                  "score trend, column profiles, schema changes (reads the inputs a second time to profile them)");
  cmd->add_option("--format", args->format, "Report format on stdout: text (for people), json, junit")
      ->capture_default_str();
  cmd->add_option("--max-violations", args->max_violations,
                  "How many row violations the report lists per check (counts are always exact)")->capture_default_str();
  cmd->add_option("--quarantine", args->quarantine_path,
                  "Write every bad row there (.csv .tsv .jsonl .parquet .arrow; a path or s3://, gs://) with _griffin_row and _griffin_errors");
  cmd->add_option("--clean", args->clean_path, "Write every row that is not bad there (.csv .tsv .jsonl .parquet .arrow; a path or s3://, gs://)");
  cmd->add_option("--parquet-compression", args->parquet_compression,
                  "The codec of the pages of .parquet outputs and of delta: outputs' data files: snappy (default), "
                  "zstd (smaller files), lz4 or none");
  cmd->add_flag("--tag-version", args->tag_version,
                "Add _griffin_version (the run's sequence number for the dataset, from the store) to --clean rows");
  cmd->add_option("--threads", args->threads, "Worker threads (default: all cores)");
  cmd->add_flag("--no-store", args->no_store, "Do not record the run (default: record it in .griffin/griffin.db)");
  cmd->add_option("--store", args->store_uri, "Record the run in this store: PATH.db or postgresql://user:pass@host/db");
  cmd->add_option("--batch-rows", args->batch_rows, "Rows per batch (memory ~ batch x threads)")->capture_default_str();
  cmd->add_option("--input-format", args->input_format,
                  "Read inputs as csv|tsv|jsonl|json|parquet|arrow regardless of extension (overrides source.format)");
  cmd->add_option("--delimiter", args->delimiter, "Field delimiter for CSV (overrides source.delimiter; 'tab' or \\t)");
  cmd->add_flag("--no-header", args->no_header, "CSV/TSV inputs have no header line (columns are column_1..N)");
  cmd->add_option("--null-value", args->null_values, "A spelling of null in text inputs (repeatable; overrides source.null_values)");
  cmd->add_option("--where", args->where,
                  "Database inputs: read only the rows this condition matches, in Griffin's predicate language "
                  "(=, !=, <, IN, BETWEEN, LIKE, IS NULL, AND/OR/NOT; values bound as parameters; docs/sql.md#where; "
                  "overrides source.where)");
  cmd->add_option("--query", args->query, "Database inputs: validate the result of this SELECT instead of a table");
  cmd->add_option("--mode", args->mode,
                  "Database inputs: scan (stream every row through the engine; default, or source.mode) or "
                  "pushdown (every check compiles to SQL: counts and samples come from the database; else, since the "
                  "engine must read every row anyway, the whole suite runs in one scan) or pushdown-split (the "
                  "checks SQL can judge exactly in the database, the rest in the engine over their own columns); "
                  "same report, see docs/sql.md");
  cmd->add_option("--store-profiles", args->store_profiles,
                  "The columns whose profile the run's record keeps (drift baselines, the run's HTML page): drift "
                  "(those with a drift check) or all (every declared column; about doubles a run's CPU time)")
      ->check(CLI::IsMember({"drift", "all"}))->capture_default_str();
  cmd->add_flag("--no-progress", args->no_progress, "Never draw the progress line on a terminal");
  cmd->add_option("--memory-limit", args->memory_limit,
                  "Memory for unique and distinct_count state (512MB, 2G; 0: no limit); past it they spill "
                  "hash partitions to --tmp-dir and finish with one more pass (same report, plus \"spill\"); with "
                  "--clean/--quarantine a unique state past it makes the run read its inputs twice (same outputs)")
      ->capture_default_str();
  cmd->add_flag("--explain", args->explain,
                "Print the compiled plan (each check; for each regex the path it takes: the DFA or RE2, and why) "
                "and exit 0 without reading the inputs");
  cmd->add_option("--tmp-dir", args->tmp_dir,
                  "Where spilled state and the spool of a table output (delta:, sqlite:, postgresql:, duckdb:) go "
                  "(default $TMPDIR, else /tmp); their files have no name, so nothing is left behind");
  cmd->add_option("--engine", args->engine, "local (this process) or spark (submit a griffin.spark job with spark-submit)")
      ->check(CLI::IsMember({"local", "spark"}))->capture_default_str();
  cmd->add_option("--master", args->master, "--engine spark: the Spark master URL (yarn, spark://host:7077, local[4], ...)");
  cmd->add_option("--key", args->keys, "--engine spark: a column that orders the rows (repeatable; griffin.spark key=)");
  cmd->footer(
      "\nExit status: 0 passed, 1 failed its checks, 2 rule file or command line wrong, 3 input unreadable.\n"
      "\nExamples:\n"
      "  griffin validate -r examples/transactions.rules.yaml examples/transactions.csv\n"
      "  griffin validate -r rules.yaml data/ --format json --max-violations 50 > report.json\n"
      "  zcat part-*.csv.gz | griffin validate -r rules.yaml - --format junit > griffin.xml\n"
      "  griffin validate -r rules.yaml day1.parquet day2.parquet --threads 4\n"
      "  griffin validate -r rules.yaml in.csv --quarantine bad.csv --clean good.parquet --tag-version\n"
      "\nRule files are described in docs/rules.md; semantics choices in docs/semantics.md.");
  return cmd;
}

}  // namespace griffin
