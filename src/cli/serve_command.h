// `griffin serve`: the quality service (src/server). Registers its options
// on a CLI11 app and runs it; returns the process exit status (0 after a
// graceful shutdown, 2 bad options/config/rules/address, 3 the store).
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace griffin {

struct ServeArgs {
  std::string rules_dir;
  std::string listen = "127.0.0.1:8080";
  std::string flight;
  std::string store_uri;
  bool no_store = false;
  std::string config_path;
  bool no_auth = false;
};

CLI::App* AddServeCommand(CLI::App& app, ServeArgs* args);
int RunServeCommand(const ServeArgs& args);

}  // namespace griffin
