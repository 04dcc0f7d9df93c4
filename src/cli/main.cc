// The griffin command line: `griffin validate ...` (and later history, show,
// rules, serve). Thin: parses arguments, calls the library, maps errors to
// exit codes.
#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/exit_codes.h"
#include "cli/validate_command.h"

#ifndef GRIFFIN_VERSION
#define GRIFFIN_VERSION "0.0.0"
#endif

int main(int argc, char** argv) {
  CLI::App app{"Griffin: a fast data-quality engine. Rules in YAML, compiled once, checked on every row."};
  app.set_version_flag("--version", std::string("griffin ") + GRIFFIN_VERSION + " (Apache Arrow 26)");
  app.require_subcommand(1);
  griffin::ValidateArgs validate_args;
  CLI::App* validate = griffin::AddValidateCommand(app, &validate_args);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "griffin: %s (see griffin %s--help)\n", e.what(),
                 validate->parsed() ? "validate " : "");
    return griffin::kExitUsage;
  }
  if (validate->parsed()) return griffin::RunValidateCommand(validate_args);
  return griffin::kExitUsage;
}
