#include <gtest/gtest.h>

#include "report/html/html_page.h"
#include "report/html/html_test_util.h"

namespace griffin {
namespace {

using html_test::Occurrences;

CheckReport DriftCheck(const std::string& column, std::optional<double> value, bool passed, const std::string& detail) {
  CheckReport check;
  check.name = column + ".drift";
  check.column = column;
  check.check = "drift";
  check.is_table = true;
  check.passed = passed;
  if (value) check.observed = JsonScalar::Number(*value);
  check.max_bound = JsonScalar::Number(0.1);
  check.detail_key = "drift";
  check.detail_json = detail;
  return check;
}

TEST(RunDriftSection, OneChartPerDriftCheckFromItsReport) {
  Report run;
  run.checks.push_back(DriftCheck(
      "x", 0.25, false,
      "{\"measure\": \"js\", \"baseline\": \"last_passed\", \"baseline_run_id\": \"abcdef0123\", "
      "\"moved\": [{\"value\": \"[0, 1)\", \"baseline_share\": 0.5, \"current_share\": 0.1}], "
      "\"distribution\": [{\"value\": \"[0, 1)\", \"baseline_share\": 0.5, \"current_share\": 0.1}, "
      "{\"value\": \"[1, 2]\", \"baseline_share\": 0.5, \"current_share\": 0.9}]}"));
  CheckReport first = DriftCheck("<c>", std::nullopt, true,
                                 "{\"measure\": null, \"baseline\": \"last_passed\", \"baseline_run_id\": null, "
                                 "\"moved\": [], \"distribution\": []}");
  first.note = "nothing to compare with yet";
  run.checks.push_back(first);
  CheckReport other;
  other.check = "min";
  run.checks.push_back(other);
  const std::string html = RunDriftSection(run, "/ui/runs/");
  EXPECT_EQ(Occurrences(html, "<div class=\"drift-column\""), 2u);
  EXPECT_NE(html.find("data-check=\"x.drift\""), std::string::npos);
  EXPECT_NE(html.find("js 0.25 &gt; max 0.1"), std::string::npos) << html;
  EXPECT_NE(html.find("class=\"drift-failed\""), std::string::npos);
  EXPECT_NE(html.find("<a href=\"/ui/runs/abcdef0123\">abcdef01</a>"), std::string::npos);
  // The whole distribution, two series: baseline and current.
  EXPECT_EQ(Occurrences(html, "class=\"bar series-0\""), 2u);
  EXPECT_EQ(Occurrences(html, "class=\"bar series-1\""), 2u);
  EXPECT_EQ(Occurrences(html, "<table class=\"moved\""), 1u);
  EXPECT_NE(html.find("&lt;c&gt;"), std::string::npos);
  EXPECT_NE(html.find("nothing to compare with yet"), std::string::npos);
  EXPECT_EQ(html.find("<c>"), std::string::npos);

  Report none;
  EXPECT_NE(RunDriftSection(none, "").find("No drift checks in this run's rules."), std::string::npos);
}

}  // namespace
}  // namespace griffin
