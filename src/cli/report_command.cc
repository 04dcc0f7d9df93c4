#include "cli/report_command.h"

#include <cstdio>

#include <CLI/CLI.hpp>

#include "cli/exit_codes.h"
#include "cli/standard_streams.h"
#include "cli/store_commands.h"
#include "report/html/stored_run_page.h"
#include "sinks/atomic_file.h"
#include "store/run_store.h"

namespace griffin {
namespace {

Status WriteReport(const ReportArgs& args) {
  if (!args.store_uri.empty()) RETURN_IF_ERROR(CheckRunStoreUri(args.store_uri));
  ASSIGN_OR_RETURN(auto store, OpenRunStore(args.store_uri.empty() ? DefaultStoreUri() : args.store_uri));
  ASSIGN_OR_RETURN(std::string run_id, ResolveRunId(*store, args.run_id));
  ASSIGN_OR_RETURN(std::string html, StoredRunPage(*store, run_id, {}));
  if (args.output_path.empty()) return WriteWhole(stdout, html, "standard output");
  return WriteFileAtomically(args.output_path, html);
}

}  // namespace

int RunReportCommand(const ReportArgs& args) {
  const Status status = WriteReport(args);
  if (status.ok()) return kExitPassed;
  std::fprintf(stderr, "griffin: %s\n", status.message().c_str());
  return ExitCodeFor(status);
}

CLI::App* AddReportCommand(CLI::App& app, ReportArgs* args) {
  CLI::App* cmd = app.add_subcommand("report", "Write a stored run as one self-contained HTML page");
  cmd->add_option("run_id", args->run_id, "The run id (from griffin history), or a unique prefix of it")->required();
  cmd->add_option("-o,--output", args->output_path, "Write the page there (default: standard output)");
  cmd->add_option("--store", args->store_uri, "The run store (default .griffin/griffin.db)");
  cmd->footer(
      "\nExit status: 0 written, 2 no such run (or an ambiguous prefix), 3 store unreadable or output not writable.\n"
      "\nExample:\n  griffin report 3f2a -o report.html     sections: docs/html-report.md");
  return cmd;
}

}  // namespace griffin
