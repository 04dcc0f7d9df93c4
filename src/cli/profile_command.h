// `griffin profile DATA... [-o profile.json] [--html profile.html] [--format text|json]`: what each
// column of the data looks like (docs/profile.md). Exit 0, 2 (usage), 3
// (input unreadable, or -o not writable).
#pragma once

#include <string>
#include <vector>

#include "cli/read_args.h"

namespace CLI {
class App;
}

namespace griffin {

struct ProfileArgs {
  std::vector<std::string> inputs;
  std::string output_path;        // -o: the JSON profile
  std::string html_path;          // --html: the profile as one self-contained HTML page
  std::string state_path;         // --state: the mergeable state's bytes
  std::string format = "text";    // stdout: text or json
  ReadArgs read;
};

CLI::App* AddProfileCommand(CLI::App& app, ProfileArgs* args);
int RunProfileCommand(const ProfileArgs& args);

}  // namespace griffin
