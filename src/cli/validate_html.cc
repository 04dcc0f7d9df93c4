#include "cli/validate_html.h"

#include <algorithm>

#include "profile/profiler.h"
#include "report/html/stored_run_page.h"
#include "sinks/atomic_file.h"

namespace griffin {

Status WriteValidateHtml(const std::string& path, const ValidateHtmlInput& input) {
  HtmlPageInput page;
  page.title = input.report->dataset + " validation";
  page.run = input.report;
  if (input.store) {
    Result<std::vector<ScorePoint>> history = ScoreHistory(*input.store, input.report->dataset);
    if (history.ok()) page.history = std::move(history).value();
    else page.history_note = "The run store could not be read: " + history.status().message();
  } else {
    page.history_note = input.no_store_reason;
  }
  std::optional<TableProfile> profile;
  if (std::find(input.inputs.begin(), input.inputs.end(), "-") != input.inputs.end()) {
    page.profile_note = "Not profiled: standard input is read only once.";
  } else {
    Result<TableProfile> profiled = ProfilePaths(input.inputs, input.read_options, ProfileOptions{input.threads});
    if (profiled.ok()) profile = std::move(profiled).value();
    else page.profile_note = "Not profiled: " + profiled.status().message();
  }
  if (profile) {
    page.profile = &*profile;
    page.profile_columns = input.columns;
  }
  return WriteFileAtomically(path, RenderHtmlPage(page));
}

}  // namespace griffin
