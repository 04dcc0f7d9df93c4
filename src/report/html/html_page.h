// One self-contained HTML page (no network; style and script inlined, see
// html_assets.h) for a validation run, a profile, or both: what
// `griffin validate --html`, `griffin report`, `griffin profile --html`,
// `griffin drift --html` and `griffin serve`'s /ui/ write. Every data value
// is escaped (html_text.h).
//
// A run page has these sections, each present (with a note when it has
// nothing to show) and found by its id: verdict, checks, violations, trend,
// profiles, drift, anomalies, schema. A profile page (no run) has profiles, and drift
// when a drift report is given.
//
//   HtmlPageInput page;
//   page.title = "transactions";
//   page.run = &report;
//   page.profile = &profile;
//   std::string html = RenderHtmlPage(page);
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profile/drift_report.h"
#include "profile/table_profile.h"
#include "report/report.h"

namespace griffin {

// The most violations a page lists (a browser stays quick; sorting and
// filtering are in the page's script). The report's others are counted in a note.
inline constexpr size_t kHtmlViolationsListed = 10000;

// One run of the dataset's history, for the score trend.
struct ScorePoint {
  std::string run_id;
  int64_t version = 0;
  std::string started_at;
  double quality_score = 0;
  bool passed = true;
};

struct HtmlPageInput {
  std::string title;
  std::vector<std::pair<std::string, std::string>> nav;  // links in the header: (text, href)
  const Report* run = nullptr;          // a validation run; null for a profile page
  std::vector<ScorePoint> history;      // the dataset's runs, oldest first (this one included)
  std::string history_note;             // why there is no history ("run with --no-store")
  std::string run_href_prefix;          // links runs in the trend to PREFIX + run_id; empty: no links
  const TableProfile* profile = nullptr;
  std::vector<std::string> profile_columns;  // columns to show, in order; empty: every column
  std::string profile_note;             // why there is no profile
  const DriftReport* drift = nullptr;
};

std::string RenderHtmlPage(const HtmlPageInput& input);

// A page around `main` (already HTML): head with the style, the policy and
// the script, a header with `title` and `nav` links (both escaped).
std::string WrapHtmlPage(const std::string& title, const std::vector<std::pair<std::string, std::string>>& nav,
                         const std::string& main);

// The sections, for html_page.cc; each returns one <section id=...>.
std::string VerdictSection(const Report& run);
std::string ChecksSection(const Report& run);
std::string ViolationsSection(const Report& run);
std::string SchemaSection(const Report& run);
std::string TrendSection(const HtmlPageInput& input);
std::string ProfilesSection(const HtmlPageInput& input);
std::string DriftSection(const DriftReport* drift);
// A run's drift checks (html_run_drift.cc): per check, the baseline's
// distribution against the run's and the values that moved most; links the
// baseline run to `run_href_prefix` + id when that is not empty.
std::string RunDriftSection(const Report& run, const std::string& run_href_prefix);
// A run's anomaly checks (html_run_anomaly.cc): per check, the metric over
// the dataset's last runs (the report's anomaly.series), the range that
// passed and this run's value; links earlier runs like RunDriftSection.
std::string RunAnomalySection(const Report& run, const std::string& run_href_prefix);

}  // namespace griffin
