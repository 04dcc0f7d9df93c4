#include "report/html/stored_run_page.h"

#include <gtest/gtest.h>

#include "report/html/html_test_util.h"
#include "exec/test_batches.h"
#include "profile/table_profile.h"
#include "report/json_writer.h"
#include "store/store_test_util.h"

namespace griffin {
namespace {

using html_test::Occurrences;

// Records a finished run of `dataset` with this score; "running" runs are begun only.
void Record(RunStore& store, const std::string& dataset, const std::string& run_id, double score, bool finish = true) {
  BeginRunRequest begin{dataset, run_id, "2026-12-04T10:00:0" + run_id.substr(1) + "Z", "0.1.0", "sha", "rules", "r.yaml"};
  ASSERT_TRUE(store.BeginRun(begin).ok());
  if (!finish) return;
  Report report;
  report.dataset = dataset;
  report.run_id = run_id;
  report.rows = 10;
  report.quality_score = score;
  report.passed = score >= 0.5;
  report.violations.push_back({3, std::string("x"), "x.max", JsonScalar::String("<i>v</i>"), "too big"});
  FinishRunRequest finish_request;
  finish_request.rows = 10;
  finish_request.quality_score = score;
  finish_request.passed = report.passed;
  finish_request.report_json = ReportToJson(report);
  ASSERT_TRUE(store.FinishRun(run_id, finish_request).ok());
}

TEST(StoredRunPageTest, PageOfAStoredRunWithItsDatasetsTrend) {
  store_test::TempDir dir;
  auto store = OpenRunStore(dir.path() + "/s.db");
  ASSERT_TRUE(store.ok()) << store.status().message();
  Record(**store, "orders", "r1", 1.0);
  Record(**store, "orders", "r2", 0.25);
  Record(**store, "orders", "r3", 0.0, /*finish=*/false);  // still running: not in the trend
  Record(**store, "other", "r4", 0.5);
  auto history = ScoreHistory(**store, "orders");
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), 2u);
  EXPECT_EQ((*history)[0].run_id, "r1");  // oldest first
  EXPECT_FALSE((*history)[1].passed);
  auto page = StoredRunPage(**store, "r2", {{{"runs", "/ui/"}}, "/ui/runs/"});
  ASSERT_TRUE(page.ok()) << page.status().message();
  EXPECT_EQ(Occurrences(*page, "<circle"), 2u);
  EXPECT_NE(page->find("<a href=\"/ui/runs/r1\">"), std::string::npos);
  EXPECT_NE(page->find("<nav><a href=\"/ui/\">runs</a></nav>"), std::string::npos);
  EXPECT_NE(page->find("&lt;i&gt;v&lt;/i&gt;"), std::string::npos);
  EXPECT_NE(page->find("verdict failed"), std::string::npos);
  EXPECT_NE(page->find("No profile is stored with this run"), std::string::npos);
  EXPECT_EQ(StoredRunPage(**store, "r3", {}).status().code(), StatusCode::kUsageError);  // not finished
  auto missing = StoredRunPage(**store, "nope", {});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kUsageError);
  EXPECT_NE(missing.status().message().find("no finished run 'nope'"), std::string::npos);
}

TEST(StoredRunPageTest, TheStoredProfileIsShownWithHistograms) {
  store_test::TempDir dir;
  auto store = OpenRunStore(dir.path() + "/s.db");
  ASSERT_TRUE(store.ok()) << store.status().message();
  ASSERT_TRUE((*store)->BeginRun({"orders", "p1", "2026-12-04T10:00:00Z", "0.1.0", "sha", "rules", "r.yaml"}).ok());
  Batch batch;
  testing::AddTextColumn(&batch, "amount", {"1", "2", "3", "40"});
  TableProfile profile;
  profile.AddBatch(batch);
  Report report;
  report.dataset = "orders";
  report.run_id = "p1";
  FinishRunRequest finish;
  finish.report_json = ReportToJson(report);
  finish.profile_state = profile.Serialize();
  ASSERT_TRUE((*store)->FinishRun("p1", finish).ok());
  auto page = StoredRunPage(**store, "p1", {});
  ASSERT_TRUE(page.ok()) << page.status().message();
  EXPECT_EQ(Occurrences(*page, "<div class=\"column\" data-column=\"amount\""), 1u);
  EXPECT_EQ(Occurrences(*page, "class=\"bar series-0\""), 20u);  // the 20-bin histogram
  EXPECT_EQ(page->find("No profile is stored"), std::string::npos);
}

}  // namespace
}  // namespace griffin
