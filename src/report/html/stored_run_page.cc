#include "report/html/stored_run_page.h"

#include <algorithm>

#include "profile/table_profile.h"
#include "report/report_reader.h"

namespace griffin {

Result<std::vector<ScorePoint>> ScoreHistory(RunStore& store, const std::string& dataset) {
  ASSIGN_OR_RETURN(std::vector<RunSummary> runs, store.History(dataset, kTrendRuns));
  std::vector<ScorePoint> points;
  for (auto run = runs.rbegin(); run != runs.rend(); ++run)
    if (run->status == "complete")
      points.push_back({run->run_id, run->version, run->started_at, run->quality_score, run->passed});
  return points;
}

Result<std::string> StoredRunPage(RunStore& store, const std::string& run_id, const StoredPageLinks& links) {
  ASSIGN_OR_RETURN(std::optional<std::string> json, store.ReportJson(run_id));
  if (!json || json->empty()) return Status::UsageError("no finished run '" + run_id + "' in " + store.Describe());
  ASSIGN_OR_RETURN(Report run, ReportFromJson(*json, "run " + run_id));
  HtmlPageInput page;
  page.title = run.dataset + " run " + run_id;
  page.nav = links.nav;
  page.run = &run;
  ASSIGN_OR_RETURN(page.history, ScoreHistory(store, run.dataset));
  page.run_href_prefix = links.run_href_prefix;
  // The run's stored profile: its drift-checked columns (docs/report.md).
  ASSIGN_OR_RETURN(std::optional<std::string> state, store.RunProfile(run_id));
  std::optional<TableProfile> profile;
  if (state) {
    Result<TableProfile> read = TableProfile::Deserialize(*state, "the stored profile of run " + run_id);
    if (read.ok()) profile = std::move(read).value();
    else page.profile_note = "The stored profile cannot be read: " + read.status().message();
  } else {
    page.profile_note = "No profile is stored with this run (a run stores the profile of its drift-checked columns).";
  }
  if (profile) page.profile = &*profile;
  return RenderHtmlPage(page);
}

}  // namespace griffin
