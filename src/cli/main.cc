// The griffin command line: `griffin validate`, history, show, rules, alerts, report, serve,
// stream, profile, suggest, drift and sql. Thin: parses arguments, calls the
// library, maps errors to exit codes.
#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/alerts_command.h"
#include "cli/drift_command.h"
#include "cli/exit_codes.h"
#include "cli/malloc_tuning.h"
#include "cli/out_of_memory.h"
#include "cli/profile_command.h"
#include "cli/report_command.h"
#include "cli/serve_command.h"
#include "cli/sql_command.h"
#include "cli/standard_streams.h"
#include "cli/suggest_command.h"
#include "cli/store_commands.h"
#include "cli/stream_command.h"
#include "cli/validate_command.h"

#ifndef GRIFFIN_VERSION
#define GRIFFIN_VERSION "0.0.0"
#endif

int main(int argc, char** argv) {
  griffin::GuardStandardStreams();
  griffin::ExitOnOutOfMemory();
  griffin::TuneMallocForBatches();
  CLI::App app{"Griffin: a fast data-quality engine. Rules in YAML, compiled once, checked on every row."};
  app.set_version_flag("--version", std::string("griffin ") + GRIFFIN_VERSION + " (Apache Arrow 26)");
  app.require_subcommand(1);
  app.footer(
      "\nStart here:\n"
      "  griffin validate -r examples/transactions.rules.yaml examples/transactions.csv\n"
      "  griffin validate --help        every option, with examples\n"
      "  griffin history transactions   the recorded runs of a dataset\n"
      "\nRule files: docs/rules.md. Exit status: 0 passed, 1 failed checks, 2 bad rules or usage, 3 unreadable input/store.");
  griffin::ValidateArgs validate_args;
  CLI::App* validate = griffin::AddValidateCommand(app, &validate_args);
  griffin::StoreCommandArgs store_args;
  CLI::App* history = griffin::AddHistoryCommand(app, &store_args);
  CLI::App* show = griffin::AddShowCommand(app, &store_args);
  CLI::App* rules = griffin::AddRulesCommand(app, &store_args);
  griffin::AlertsArgs alerts_args;
  CLI::App* alerts = griffin::AddAlertsCommand(app, &alerts_args);
  griffin::ReportArgs report_args;
  CLI::App* report = griffin::AddReportCommand(app, &report_args);
  griffin::ProfileArgs profile_args;
  CLI::App* profile = griffin::AddProfileCommand(app, &profile_args);
  griffin::SuggestArgs suggest_args;
  CLI::App* suggest = griffin::AddSuggestCommand(app, &suggest_args);
  griffin::DriftArgs drift_args;
  CLI::App* drift = griffin::AddDriftCommand(app, &drift_args);
  griffin::SqlArgs sql_args;
  CLI::App* sql = griffin::AddSqlCommand(app, &sql_args);
  griffin::ServeArgs serve_args;
  CLI::App* serve = griffin::AddServeCommand(app, &serve_args);
  griffin::StreamArgs stream_args;
  CLI::App* stream = griffin::AddStreamCommand(app, &stream_args);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string command;
    for (CLI::App* sub : app.get_subcommands()) command = sub->get_name() + " ";
    std::fprintf(stderr, "griffin: %s (see griffin %s--help)\n", e.what(), command.c_str());
    return griffin::kExitUsage;
  }
  if (validate->parsed()) return griffin::RunValidateCommand(validate_args);
  if (history->parsed()) return griffin::RunHistoryCommand(store_args);
  if (show->parsed()) return griffin::RunShowCommand(store_args);
  if (rules->parsed()) return griffin::RunRulesCommand(store_args);
  if (alerts->parsed()) return griffin::RunAlertsCommand(alerts_args);
  if (report->parsed()) return griffin::RunReportCommand(report_args);
  if (serve->parsed()) return griffin::RunServeCommand(serve_args);
  if (stream->parsed()) return griffin::RunStreamCommand(stream_args);
  if (profile->parsed()) return griffin::RunProfileCommand(profile_args);
  if (suggest->parsed()) return griffin::RunSuggestCommand(suggest_args);
  if (drift->parsed()) return griffin::RunDriftCommand(drift_args);
  if (sql->parsed()) return griffin::RunSqlCommand(sql_args);
  return griffin::kExitUsage;
}
