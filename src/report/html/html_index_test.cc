#include "report/html/html_index.h"

#include <gtest/gtest.h>

#include "report/html/html_test_util.h"

namespace griffin {
namespace {

using html_test::Occurrences;

RunSummary Summary(std::string id, int64_t version, std::string status, double score, bool passed) {
  RunSummary run;
  run.run_id = std::move(id);
  run.version = version;
  run.started_at = "2026-12-04T10:00:00Z";
  run.status = std::move(status);
  run.rows = 10;
  run.quality_score = score;
  run.passed = passed;
  return run;
}

TEST(HtmlIndexTest, EachDatasetWithItsRunsLinked) {
  std::vector<DatasetRuns> datasets = {
      {"orders<x>", {Summary("r3", 3, "running", 0, false), Summary("r2", 2, "complete", 0.5, false), Summary("r1", 1, "complete", 1, true)}},
      {"empty", {}, "the server runs with --no-store"}};
  const std::string html = RenderIndexPage("griffin serve", datasets, "/ui/runs/");
  EXPECT_EQ(Occurrences(html, "<section id=\"datasets\""), 1u);
  EXPECT_NE(html.find("<h3>orders&lt;x&gt;</h3>"), std::string::npos);
  EXPECT_EQ(Occurrences(html, "<a href=\"/ui/runs/r2\">r2</a>"), 1u);
  EXPECT_EQ(Occurrences(html, "href=\"/ui/runs/r3\""), 0u);  // not finished: no page yet
  EXPECT_EQ(Occurrences(html, "<circle"), 2u);                // the complete runs, in the trend
  EXPECT_LT(html.find("<a href=\"/ui/runs/r1\"><circle"), html.find("<a href=\"/ui/runs/r2\"><circle"));  // oldest first
  EXPECT_EQ(Occurrences(html, "<table id=\"runs-0\" class=\"sortable\">"), 1u);
  EXPECT_NE(html.find("the server runs with --no-store"), std::string::npos);
  EXPECT_EQ(Occurrences(html, "<script"), 1u);
}

}  // namespace
}  // namespace griffin
