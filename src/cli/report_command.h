// `griffin report RUN_ID [-o report.html] [--store URI]`: a stored run as one
// self-contained HTML page (docs/html-report.md): its report, the dataset's
// score trend, and what else is stored with it. RUN_ID may be a unique prefix.
// Exit 0, 2 (usage: no such run, an ambiguous prefix), 3 (store unreadable,
// -o not writable).
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace griffin {

struct ReportArgs {
  std::string run_id;
  std::string output_path;  // -o; empty: standard output
  std::string store_uri;
};

CLI::App* AddReportCommand(CLI::App& app, ReportArgs* args);
int RunReportCommand(const ReportArgs& args);

}  // namespace griffin
