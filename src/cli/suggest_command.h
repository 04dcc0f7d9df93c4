// `griffin suggest DATA... [-o rules.yaml] [--dataset NAME]`: a rule file
// suggested from the data's profile, each rule with its evidence
// (profile/rule_suggester.h, docs/profile.md). Exit 0, 2 (usage), 3 (input
// unreadable, or -o not writable).
#pragma once

#include <string>
#include <vector>

#include "cli/read_args.h"

namespace CLI {
class App;
}

namespace griffin {

struct SuggestArgs {
  std::vector<std::string> inputs;
  std::string output_path;  // -o; stdout when empty
  std::string dataset;      // default: the first input's file name
  ReadArgs read;
};

CLI::App* AddSuggestCommand(CLI::App& app, SuggestArgs* args);
int RunSuggestCommand(const SuggestArgs& args);

}  // namespace griffin
