// The run-store commands: `griffin history DATASET`, `griffin show RUN_ID`
// (or a unique prefix of it), `griffin rules DATASET [--diff A --to B]`. Each reads the store (default .griffin/griffin.db,
// or --store URI) and prints; exit 0, 2 (usage), 3 (store unreadable).
#pragma once

#include <string>
#include <vector>

#include "store/run_store.h"
#include "util/status.h"

namespace CLI {
class App;
}

namespace griffin {

struct StoreCommandArgs {
  std::string store_uri;
  std::string format = "text";
  std::string dataset;        // history, rules
  std::string run_id;         // show
  int limit = 50;             // history
  std::string diff_from, diff_to;  // rules --diff A --to B (rule version numbers or sha256 prefixes)
};

CLI::App* AddHistoryCommand(CLI::App& app, StoreCommandArgs* args);
CLI::App* AddShowCommand(CLI::App& app, StoreCommandArgs* args);
CLI::App* AddRulesCommand(CLI::App& app, StoreCommandArgs* args);

int RunHistoryCommand(const StoreCommandArgs& args);
int RunShowCommand(const StoreCommandArgs& args);
int RunRulesCommand(const StoreCommandArgs& args);

// The full id of the run `key` names: its id or a unique prefix of one; a
// UsageError naming the candidates when the prefix is ambiguous or matches none.
Result<std::string> ResolveRunId(RunStore& store, const std::string& key);

// A sparkline of values in [0, 1] (one of ▁▂▃▄▅▆▇█ per value), for terminals.
std::string Sparkline(const std::vector<double>& values);

}  // namespace griffin
