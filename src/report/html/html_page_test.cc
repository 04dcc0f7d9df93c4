#include "report/html/html_page.h"

#include <gtest/gtest.h>

#include "report/html/html_test_util.h"

#include "exec/test_batches.h"

namespace griffin {
namespace {

using html_test::Occurrences;

constexpr const char* kHostile = "<script>document.title='pwned'</script><img src=x onerror=alert(1)>";

Report HostileRun() {
  Report run;
  run.dataset = "orders<b>";
  run.run_id = "r1";
  run.rows = 3;
  run.bad_rows = 1;
  run.quality_score = 2.0 / 3;
  run.passed = false;
  CheckReport check;
  check.name = "amount_max";
  check.column = "amount";
  check.check = "max";
  check.severity = "error";
  check.evaluated = 3;
  check.violations = 1;
  check.pass_rate = 2.0 / 3;
  check.passed = false;
  run.checks.push_back(check);
  run.violations.push_back({2, std::string("amount"), "amount_max", JsonScalar::String(kHostile), "too big"});
  run.schema_changes.push_back("in.csv: column '<x>' added");
  return run;
}

TEST(HtmlPageTest, RunPageHasEverySectionAndOnlyItsOwnScript) {
  Report run = HostileRun();
  Batch batch;
  testing::AddTextColumn(&batch, "amount", {"1", "2", "300"});
  testing::AddTextColumn(&batch, "note", {kHostile, kHostile, std::nullopt});
  TableProfile profile;
  profile.AddBatch(batch);
  HtmlPageInput input;
  input.title = "orders <run>";
  input.run = &run;
  input.history = {{"r0", 1, "2026-12-01T00:00:00Z", 1.0, true}, {"r1", 2, "2026-12-02T00:00:00Z", 2.0 / 3, false}};
  input.run_href_prefix = "/ui/runs/";
  input.profile = &profile;
  const std::string html = RenderHtmlPage(input);
  for (const char* id : {"verdict", "checks", "violations", "trend", "profiles", "drift", "anomalies", "schema"})
    EXPECT_EQ(Occurrences(html, std::string("<section id=\"") + id + "\""), 1u) << id;
  EXPECT_EQ(Occurrences(html, "<script"), 1u);  // the page's own; the hostile value is text
  EXPECT_EQ(Occurrences(html, "<img"), 0u);
  EXPECT_EQ(Occurrences(html, "&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;"), 2u);  // violation + top value
  EXPECT_NE(html.find("<title>orders &lt;run&gt;</title>"), std::string::npos);
  EXPECT_NE(html.find("column &#39;&lt;x&gt;&#39; added"), std::string::npos);
  EXPECT_NE(html.find("<a href=\"/ui/runs/r0\">"), std::string::npos);
  EXPECT_NE(html.find("verdict failed"), std::string::npos);
  EXPECT_NE(html.find("66.7%"), std::string::npos);
  EXPECT_EQ(Occurrences(html, "<div class=\"column\""), 2u);
  // amount's histogram: 20 equal-width bins over [1, 300]; 1 and 2 share the first.
  EXPECT_EQ(Occurrences(html, "class=\"bar series-0\""), 20u);
  EXPECT_EQ(Occurrences(html, "height=\"0.0\""), 18u);
  EXPECT_NE(html.find("No drift checks in this run's rules."), std::string::npos);
  EXPECT_EQ(html.find("http://"), std::string::npos);  // nothing to fetch
  EXPECT_EQ(html.find("https://"), std::string::npos);
}

TEST(HtmlPageTest, ProfileColumnsAreThoseAskedForInTheirOrder) {
  Report run = HostileRun();
  Batch batch;
  testing::AddTextColumn(&batch, "a", {"1"});
  testing::AddTextColumn(&batch, "b", {"x"});
  testing::AddTextColumn(&batch, "c", {"y"});
  TableProfile profile;
  profile.AddBatch(batch);
  HtmlPageInput input;
  input.run = &run;
  input.profile = &profile;
  input.profile_columns = {"c", "a"};
  const std::string html = RenderHtmlPage(input);
  EXPECT_EQ(Occurrences(html, "<div class=\"column\""), 2u);
  EXPECT_LT(html.find("data-column=\"c\""), html.find("data-column=\"a\""));
}

TEST(HtmlPageTest, ListsAtMostTheCapOfViolations) {
  Report run = HostileRun();
  run.violations.assign(kHtmlViolationsListed + 5, run.violations.front());
  HtmlPageInput input;
  input.run = &run;
  const std::string html = RenderHtmlPage(input);
  EXPECT_EQ(Occurrences(html, "<td class=\"value\">&lt;script&gt;"), kHtmlViolationsListed);
  EXPECT_NE(html.find("lists the first 10000 of the report's 10005 violations"), std::string::npos);
}

TEST(HtmlPageTest, EmptySectionsSayWhy) {
  Report run;
  run.dataset = "d";
  HtmlPageInput input;
  input.run = &run;
  input.history_note = "run with --no-store: no history";
  input.profile_note = "standard input is read once";
  const std::string html = RenderHtmlPage(input);
  EXPECT_NE(html.find("No row violations."), std::string::npos);
  EXPECT_NE(html.find("run with --no-store: no history"), std::string::npos);
  EXPECT_NE(html.find("standard input is read once"), std::string::npos);
  EXPECT_NE(html.find("No schema errors"), std::string::npos);
}

TEST(HtmlPageTest, ProfilePageWithDrift) {
  DriftReport drift;
  drift.baseline = "train";
  drift.current = "serve";
  drift.max = 0.1;
  ColumnDrift kind;
  kind.column = "kind";
  kind.measure = "linf";
  kind.value = 0.3;
  kind.moved = {{"<refund>", 0.1, 0.4}};
  drift.columns = {kind};
  HtmlPageInput input;
  input.title = "drift";
  input.drift = &drift;
  input.profile_note = "none";
  const std::string html = RenderHtmlPage(input);
  EXPECT_EQ(Occurrences(html, "<section id=\"verdict\""), 0u);
  EXPECT_EQ(Occurrences(html, "<section id=\"drift\""), 1u);
  EXPECT_NE(html.find("linf 0.3 (over max)"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"value\">&lt;refund&gt;</td><td class=\"num\">10.0%</td><td class=\"num\">40.0%</td>"),
            std::string::npos);
  EXPECT_EQ(Occurrences(html, "class=\"bar series-1\""), 1u);
}

}  // namespace
}  // namespace griffin
