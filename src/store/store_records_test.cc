// store_records: a run validated elsewhere (griffin.spark's .save) recorded
// as the CLI records one.
#include "store/store_records.h"

#include <gtest/gtest.h>

#include "api/validator.h"
#include "store/store_test_util.h"

namespace griffin::store_test {
namespace {

TEST(StoreRecordsTest, RecordFinishedRunStoresTheRunWithItsReportAndOrigin) {
  TempDir dir;
  const std::string uri = dir.path() + "/runs.db";
  auto validator = Validator::FromText("griffin: 1\ndataset: spark_orders\ncolumns:\n  id: {type: int64, not_null: true}\n",
                                       "rules.yaml");
  ASSERT_TRUE(validator.ok()) << validator.status().message();
  auto result = (*validator)->ValidateText("id\n1\nx\n3\n4\n", InputFormat::kCsv, "part", {});
  ASSERT_TRUE(result.ok()) << result.status().message();
  Report report = result->report;
  auto ticket = RecordFinishedRun(uri, (*validator)->rules(), &report, {"spark:parquet orders"}, {4}, "spark");
  ASSERT_TRUE(ticket.ok()) << ticket.status().message();
  EXPECT_EQ(ticket->version, 1);
  EXPECT_EQ(report.run_id, ticket->run_id);

  auto store = OpenRunStore(uri);
  ASSERT_TRUE(store.ok());
  auto history = (*store)->History("spark_orders", 10);
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), 1u);
  const RunSummary& run = (*history)[0];
  EXPECT_EQ(run.run_id, ticket->run_id);
  EXPECT_EQ(run.status, "complete");
  EXPECT_EQ(run.origin, "spark");
  EXPECT_EQ(run.rows, 4);
  EXPECT_EQ(run.bad_rows, 1);
  EXPECT_FALSE(run.passed);
  auto json = (*store)->ReportJson(ticket->run_id);
  ASSERT_TRUE(json.ok() && json->has_value());
  EXPECT_NE((*json)->find(ticket->run_id), std::string::npos) << **json;
  EXPECT_NE((*json)->find("spark:parquet orders"), std::string::npos) << **json;

  auto second = RecordFinishedRun(uri, (*validator)->rules(), &report, {"x"}, {4}, "spark");
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->version, 2);
}

TEST(StoreRecordsTest, RecordFinishedRunRefusesAUriOfNoStoreForm) {
  auto validator = Validator::FromText("griffin: 1\ndataset: d\ncolumns:\n  id: {type: int64}\n", "rules.yaml");
  ASSERT_TRUE(validator.ok());
  Report report;
  auto ticket = RecordFinishedRun("runs.txt", (*validator)->rules(), &report, {}, {}, "spark");
  ASSERT_FALSE(ticket.ok());
  EXPECT_NE(ticket.status().message().find("runs.txt"), std::string::npos) << ticket.status().message();
}

TEST(StoreRecordsTest, MakeBeginRequestNamesTheRulesAndTheOrigin) {
  auto validator = Validator::FromText("griffin: 1\ndataset: steps\ncolumns:\n  x: {type: int64}\n", "steps.yaml");
  ASSERT_TRUE(validator.ok());
  const RuleSet& rules = (*validator)->rules();
  const BeginRunRequest a = MakeBeginRequest(rules, "python"), b = MakeBeginRequest(rules, "python");
  EXPECT_EQ(a.dataset, "steps");
  EXPECT_EQ(a.rules_sha256, rules.sha256);
  EXPECT_EQ(a.rules_text, rules.text);
  EXPECT_EQ(a.rules_path, rules.path);
  EXPECT_EQ(a.origin, "python");
  EXPECT_EQ(a.griffin_version, GRIFFIN_VERSION);
  EXPECT_EQ(a.run_id.size(), 36u);
  EXPECT_NE(a.run_id, b.run_id);  // a fresh id each time
  EXPECT_FALSE(a.started_at.empty());
}

}  // namespace
}  // namespace griffin::store_test
