#include "cli/drift_command.h"

#include <cstdio>

#include <CLI/CLI.hpp>

#include "cli/exit_codes.h"
#include "io/source_registry.h"
#include "profile/drift_report.h"
#include "report/html/html_page.h"
#include "profile/profiler.h"
#include "sinks/atomic_file.h"
#include "sinks/output_guard.h"

namespace griffin {
namespace {

// The drift report; `current_profile` receives the current side's profile.
Result<DriftReport> Compare(const DriftArgs& args, TableProfile* current_profile) {
  if (args.format != "text" && args.format != "json")
    return Status::UsageError("--format: must be text or json, got '" + args.format + "'");
  if (args.max > 1) return Status::UsageError("--max: drift values lie in [0, 1], got " + std::to_string(args.max));
  RETURN_IF_ERROR(RefuseOutputOverFiles("-o", args.output_path,
                                        {{"baseline", args.baseline}, {"input", args.current}}));
  RETURN_IF_ERROR(RefuseOutputOverFiles("--html", args.html_path,
                                        {{"baseline", args.baseline}, {"input", args.current}, {"-o file", args.output_path}}));
  ASSIGN_OR_RETURN(ReadOptions read_options, MakeReadOptions(args.read));
  read_options.json_all_keys = true;
  const ProfileOptions options{args.read.threads};
  ASSIGN_OR_RETURN(TableProfile baseline, ProfileOrState(args.baseline, read_options, options));
  ASSIGN_OR_RETURN(TableProfile current, ProfileOrState(args.current, read_options, options));
  DriftReport report;
  report.baseline = args.baseline;
  report.current = args.current;
  if (args.max >= 0) report.max = args.max;
  report.columns = CompareProfiles(baseline, current);
  *current_profile = std::move(current);
  return report;
}

}  // namespace

int RunDriftCommand(const DriftArgs& args) {
  TableProfile current_profile;
  Result<DriftReport> report = Compare(args, &current_profile);
  Status status = report.ok() ? Status::OK() : report.status();
  if (status.ok() && !args.output_path.empty()) status = WriteFileAtomically(args.output_path, DriftToJson(*report));
  if (status.ok() && !args.html_path.empty()) {
    HtmlPageInput page;
    page.title = "drift of " + RedactUri(args.current) + " against " + RedactUri(args.baseline);
    page.profile = &current_profile;
    page.drift = &*report;
    status = WriteFileAtomically(args.html_path, RenderHtmlPage(page));
  }
  if (!status.ok()) {
    std::fprintf(stderr, "griffin: %s\n", status.message().c_str());
    return ExitCodeFor(status);
  }
  const std::string out = args.format == "json" ? DriftToJson(*report) : DriftToText(*report);
  std::fwrite(out.data(), 1, out.size(), stdout);
  if (std::fflush(stdout) != 0) return kExitInput;
  return report->passed() ? kExitPassed : kExitFailed;
}

CLI::App* AddDriftCommand(CLI::App& app, DriftArgs* args) {
  CLI::App* cmd = app.add_subcommand(
      "drift", "Compare two datasets or profiles column by column (training/serving skew): "
               "L-infinity for categorical columns, Jensen-Shannon divergence for numeric ones");
  cmd->add_option("baseline", args->baseline, "The baseline: data, or a state from griffin profile --state")->required();
  cmd->add_option("current", args->current, "The data to compare (or a profile state)")->required();
  cmd->add_option("--max", args->max, "Fail (exit 1) when a column's drift exceeds this (0 to 1)");
  cmd->add_option("--format", args->format, "Output on stdout: text or json")->capture_default_str();
  cmd->add_option("-o,--output", args->output_path, "Write the JSON drift report there");
  cmd->add_option("--html", args->html_path,
                  "Write the drift charts and the current data's column profiles as one self-contained HTML page");
  AddReadOptions(cmd, &args->read);
  cmd->footer(
      "\nExit status: 0 no drift above --max, 1 some column above it, 2 command line wrong, 3 unreadable input.\n"
      "\nExamples:\n"
      "  griffin profile train.parquet --state train.state\n"
      "  griffin drift train.state serving.csv --max 0.1\n"
      "\nThe measures (TFDV's): docs/semantics.md \"Drift\"; the output: docs/profile.md.");
  return cmd;
}

}  // namespace griffin
