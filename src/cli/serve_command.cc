#include "cli/serve_command.h"

#include <cstdio>

#include <CLI/CLI.hpp>

#include "cli/exit_codes.h"
#include "server/service_runner.h"
#include "store/run_store.h"

namespace griffin {

CLI::App* AddServeCommand(CLI::App& app, ServeArgs* args) {
  CLI::App* cmd = app.add_subcommand("serve", "Run the quality service: an HTTP API (and Arrow Flight) over a rules directory");
  cmd->add_option("--rules-dir", args->rules_dir, "Each *.yaml in it is one dataset's rules, reloaded on change")->required();
  cmd->add_option("--listen", args->listen, "HTTP address HOST:PORT (port 0: a free port, printed on stderr)")
      ->capture_default_str();
  cmd->add_option("--flight", args->flight, "Also serve Arrow Flight on HOST:PORT");
  cmd->add_option("--store", args->store_uri, "Record runs in this store (default .griffin/griffin.db)");
  cmd->add_flag("--no-store", args->no_store, "Record nothing");
  cmd->add_option("--config", args->config_path, "Config file: API keys, limits, TLS (docs/service.md)");
  cmd->add_flag("--no-auth", args->no_auth, "Accept requests without an API key (closed networks and tests only)");
  cmd->footer(
      "\nExamples:\n"
      "  griffin serve --rules-dir rules/ --config serve.yaml\n"
      "  griffin serve --rules-dir rules/ --config serve.yaml --listen 0.0.0.0:8080 --flight 0.0.0.0:8815\n"
      "\nSIGHUP re-reads the rules directory now; SIGTERM drains and stops. The API: docs/service.md, docs/openapi.yaml.");
  return cmd;
}

int RunServeCommand(const ServeArgs& args) {
  if (args.no_store && !args.store_uri.empty()) {
    std::fprintf(stderr, "griffin: --no-store and --store exclude each other\n");
    return kExitUsage;
  }
  server::ServiceOptions options;
  options.rules_dir = args.rules_dir;
  options.listen = args.listen;
  options.flight = args.flight;
  options.store_uri = args.no_store ? "" : args.store_uri.empty() ? DefaultStoreUri() : args.store_uri;
  options.config_path = args.config_path;
  options.no_auth = args.no_auth;
  Status status = server::RunService(options);
  if (!status.ok()) {
    std::fprintf(stderr, "griffin: %s\n", status.message().c_str());
    return ExitCodeFor(status);
  }
  return kExitPassed;
}

}  // namespace griffin
