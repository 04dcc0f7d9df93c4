#include <gtest/gtest.h>

#include <cmath>

#include "report/html/html_page.h"
#include "report/html/html_test_util.h"

namespace griffin {
namespace {

using html_test::Occurrences;

CheckReport AnomalyCheck(const std::string& name, std::optional<double> value, bool passed, const std::string& detail) {
  CheckReport check;
  check.name = name;
  check.check = "anomaly";
  check.is_table = true;
  check.passed = passed;
  if (value) check.observed = JsonScalar::Number(*value);
  check.detail_key = "anomaly";
  check.detail_json = detail;
  return check;
}

TEST(RunAnomalySection, OneChartPerCheckWithTheSeriesTheBandAndThisRun) {
  Report run;
  CheckReport jump = AnomalyCheck(
      "table.row_count.anomaly", 2000, false,
      "{\"metric\": \"row_count\", \"strategy\": \"relative_change\", \"season\": 1, \"expected\": 1100, "
      "\"stddev\": null, \"change\": 0.818, \"z\": null, "
      "\"history\": [{\"run_id\": \"run-2\", \"version\": 2, \"started_at\": \"t2\", \"value\": 1100}], "
      "\"series\": [{\"run_id\": \"run-1\", \"version\": 1, \"started_at\": \"t1\", \"value\": 1000}, "
      "{\"run_id\": \"run-2\", \"version\": 2, \"started_at\": \"t2\", \"value\": 1100}]}");
  // As a report read back from the store has them: whole numbers as integers (text only).
  jump.observed = JsonScalar::Integer(2000);
  jump.min_bound = JsonScalar::Integer(770);
  jump.max_bound = JsonScalar::Integer(1650);
  jump.message = "row_count 2000 rose by 81.8182% from 1100 (run 2), more than max_increase 0.5";
  run.checks.push_back(jump);
  CheckReport early = AnomalyCheck("<m>.mean.anomaly", 3.5, true,
                                   "{\"metric\": \"<m>.mean\", \"strategy\": \"z_score\", \"season\": 1, "
                                   "\"expected\": null, \"stddev\": null, \"change\": null, \"z\": null, "
                                   "\"history\": [], \"series\": []}");
  early.note = "too little history: 0 earlier values, z_score needs 5";
  run.checks.push_back(early);
  CheckReport other;
  other.check = "drift";
  run.checks.push_back(other);

  const std::string html = RunAnomalySection(run, "/ui/runs/");
  EXPECT_EQ(Occurrences(html, "<div class=\"anomaly-check\""), 2u);
  EXPECT_NE(html.find("data-check=\"table.row_count.anomaly\" data-metric=\"row_count\""), std::string::npos);
  EXPECT_NE(html.find("2000 outside 770 … 1650"), std::string::npos) << html;
  EXPECT_NE(html.find("<p class=\"anomaly-failed\">row_count 2000 rose by"), std::string::npos);
  EXPECT_NE(html.find("relative_change, expected 1100, compared with 1 earlier run"), std::string::npos);
  // Two earlier runs (the one compared with in its own class), this run last, failed.
  EXPECT_EQ(Occurrences(html, "class=\"point earlier\" data-value=\"1000\""), 1u) << html;
  EXPECT_EQ(Occurrences(html, "class=\"point history\" data-value=\"1100\""), 1u);
  EXPECT_EQ(Occurrences(html, "class=\"point failed current\" data-value=\"2000\""), 1u);
  EXPECT_NE(html.find("<a href=\"/ui/runs/run-1\">"), std::string::npos);
  EXPECT_EQ(Occurrences(html, "<rect class=\"band\""), 1u);
  EXPECT_NE(html.find("<title>passes: 770 … 1650</title>"), std::string::npos);
  // Not judged: the note, this run's value, no band; names escaped.
  EXPECT_NE(html.find("too little history: 0 earlier values"), std::string::npos);
  EXPECT_NE(html.find("&lt;m&gt;.mean"), std::string::npos);
  EXPECT_EQ(html.find("<m>"), std::string::npos);
  EXPECT_EQ(Occurrences(html, "class=\"point current\" data-value=\"3.5\""), 1u);

  Report none;
  EXPECT_NE(RunAnomalySection(none, "").find("No anomaly checks in this run's rules."), std::string::npos);
}

TEST(RunAnomalySection, AnOpenSideReachesTheEdge) {
  Report run;
  CheckReport check = AnomalyCheck("table.bad_rows.anomaly", 5, true,
                                   "{\"metric\": \"bad_rows\", \"strategy\": \"absolute_change\", \"expected\": 4, "
                                   "\"history\": [{\"run_id\": \"a\", \"version\": 1, \"started_at\": \"t\", \"value\": 4}], "
                                   "\"series\": [{\"run_id\": \"a\", \"version\": 1, \"started_at\": \"t\", \"value\": 4}]}");
  check.max_bound = JsonScalar::Number(14);
  run.checks.push_back(check);
  const std::string html = RunAnomalySection(run, "");
  EXPECT_NE(html.find("5 within ≤ 14"), std::string::npos) << html;
  EXPECT_NE(html.find("<title>passes: ≤ 14</title>"), std::string::npos);
  EXPECT_EQ(html.find("<a href"), std::string::npos);

  // A value that is not a number (a mean of NaN) is named, not drawn.
  run.checks.front().observed = JsonScalar::Number(std::nan(""));
  run.checks.front().passed = false;
  const std::string nan_page = RunAnomalySection(run, "");
  EXPECT_NE(nan_page.find("<span class=\"anomaly-failed\">nan"), std::string::npos) << nan_page;
  EXPECT_EQ(nan_page.find("class=\"point failed current\""), std::string::npos);
  EXPECT_EQ(nan_page.find("\"nan\""), std::string::npos) << nan_page;  // no coordinate
}

}  // namespace
}  // namespace griffin
