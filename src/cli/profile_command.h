// `griffin profile DATA... [-o profile.json] [--format text|json]`: what each
// column of the data looks like (docs/profile.md). Exit 0, 2 (usage), 3
// (input unreadable, or -o not writable).
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace griffin {

struct ProfileArgs {
  std::vector<std::string> inputs;
  std::string output_path;        // -o: the JSON profile
  std::string state_path;         // --state: the mergeable state's bytes
  std::string format = "text";    // stdout: text or json
  int threads = 0;
  int64_t batch_rows = 65536;
  std::string input_format;
  std::string delimiter;
  bool no_header = false;
  std::vector<std::string> null_values;
};

CLI::App* AddProfileCommand(CLI::App& app, ProfileArgs* args);
int RunProfileCommand(const ProfileArgs& args);

}  // namespace griffin
