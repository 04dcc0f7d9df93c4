// `griffin drift BASELINE CURRENT [--max X] [--format text|json] [-o drift.json] [--html drift.html]`:
// training/serving skew. Each side is data (any input Griffin reads) or a
// profile state written by `griffin profile --state`. Exit 0 (no column's
// drift above --max), 1 (some is), 2 (usage), 3 (unreadable input or state).
#pragma once

#include <string>

#include "cli/read_args.h"

namespace CLI {
class App;
}

namespace griffin {

struct DriftArgs {
  std::string baseline, current;
  double max = -1;               // < 0: no maximum
  std::string format = "text";
  std::string output_path;       // -o: the JSON drift report
  std::string html_path;         // --html: the drift charts and the current data's profile as a page
  ReadArgs read;
};

CLI::App* AddDriftCommand(CLI::App& app, DriftArgs* args);
int RunDriftCommand(const DriftArgs& args);

}  // namespace griffin
