#include "history/anomaly_checks.h"

#include <gtest/gtest.h>

#include "history/history_checks.h"
#include "report/html/html_test_util.h"
#include "rules/rule_loader.h"
#include "store/store_test_util.h"

namespace griffin {
namespace {

using store_test::TempDir;

std::shared_ptr<const Plan> CompileTable(const std::string& items) {
  auto rules = LoadRuleText("griffin: 1\ndataset: d\ncolumns:\n  amount: {type: float64}\ntable:\n" + items, "r.yaml");
  EXPECT_TRUE(rules.ok()) << rules.status().message();
  auto plan = Plan::Compile(*rules, 0);
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  return *plan;
}

// The report as the merger leaves it: every check a not-yet-evaluated history check.
Report Unjudged(const Plan& plan, int64_t rows, std::optional<double> mean) {
  Report report;
  report.rows = rows;
  for (const CheckInfo& info : plan.checks()) {
    CheckReport check;
    check.name = info.name;
    check.column = info.column;
    check.check = info.check;
    check.severity = SeverityName(info.options.severity);
    check.is_table = true;
    check.note = "not evaluated";
    report.checks.push_back(check);
  }
  ColumnSummary amount;
  amount.column = "amount";
  amount.count = mean ? rows : 0;
  amount.nulls = mean ? 0 : rows;
  amount.mean = mean;
  report.column_summaries.push_back(amount);
  return report;
}

// The report's anomaly check (the column's `type` check comes first).
CheckReport& Anomaly(Report& report) {
  for (CheckReport& check : report.checks)
    if (check.check == "anomaly") return check;
  ADD_FAILURE() << "no anomaly check";
  return report.checks.front();
}

void RecordRun(RunStore& store, const std::string& run_id, int64_t rows, std::optional<double> mean,
               bool complete = true) {
  ASSERT_TRUE(store.BeginRun(store_test::MakeBegin("d", run_id)).ok());
  FinishRunRequest finish;
  finish.ended_at = UtcNowIso8601();
  finish.rows = rows;
  ColumnMetricsRecord amount;
  amount.column = "amount";
  amount.count = rows;
  amount.mean = mean;
  finish.columns.push_back(amount);
  if (complete) {
    ASSERT_TRUE(store.FinishRun(run_id, finish).ok());
  }
}

TEST(AnomalyChecks, RowCountJumpAgainstTheStoredHistory) {
  TempDir dir;
  auto store = OpenRunStore(dir.path() + "/s.db");
  ASSERT_TRUE(store.ok()) << store.status().message();
  auto plan = CompileTable("  - anomaly: {metric: row_count, relative_change: {max_increase: 0.5, max_decrease: 0.3}}\n");

  Report first = Unjudged(*plan, 1000, 10);
  EvaluateHistoryChecks(*plan, HistoryContext{store->get()}, &first);
  EXPECT_TRUE(first.passed && Anomaly(first).passed);
  EXPECT_NE(Anomaly(first).note.find("too little history: 0 earlier values"), std::string::npos)
      << Anomaly(first).note;
  EXPECT_EQ(Anomaly(first).observed.number, 1000);

  RecordRun(**store, "run-1", 1000, 10);
  RecordRun(**store, "run-2", 1100, 10);
  RecordRun(**store, "run-3", 5, 10, /*complete=*/false);  // still running: not history
  Report steady = Unjudged(*plan, 1200, 10);
  EvaluateHistoryChecks(*plan, HistoryContext{store->get()}, &steady);
  EXPECT_TRUE(Anomaly(steady).passed) << Anomaly(steady).message;
  EXPECT_EQ(Anomaly(steady).note, "");
  EXPECT_EQ(Anomaly(steady).max_bound.number, 1650);
  EXPECT_EQ(Anomaly(steady).min_bound.number, 770);

  Report jump = Unjudged(*plan, 2000, 10);
  EvaluateHistoryChecks(*plan, HistoryContext{store->get()}, &jump);
  const CheckReport& check = Anomaly(jump);
  EXPECT_FALSE(check.passed);
  EXPECT_FALSE(jump.passed);
  EXPECT_EQ(check.message, "row_count 2000 rose by 81.8182% from 1100 (run 2), more than max_increase 0.5");
  EXPECT_EQ(check.detail_key, "anomaly");
  EXPECT_NE(check.detail_json.find("\"strategy\": \"relative_change\""), std::string::npos) << check.detail_json;
  EXPECT_NE(check.detail_json.find("\"history\": [{\"run_id\": \"run-2\", \"version\": 2"), std::string::npos)
      << check.detail_json;
  // The series (for the page's chart) holds every earlier complete run, oldest
  // first, though relative_change compares with the last one only.
  const size_t series = check.detail_json.find("\"series\": [");
  ASSERT_NE(series, std::string::npos) << check.detail_json;
  const size_t run1 = check.detail_json.find("\"run-1\"", series), run2 = check.detail_json.find("\"run-2\"", series);
  EXPECT_TRUE(run1 != std::string::npos && run2 != std::string::npos && run1 < run2) << check.detail_json;
  EXPECT_EQ(check.detail_json.find("\"run-3\""), std::string::npos);
}

TEST(AnomalyChecks, SeriesHoldsTheLastRunsWhateverTheStrategyUses) {
  TempDir dir;
  auto store = OpenRunStore(dir.path() + "/s.db");
  ASSERT_TRUE(store.ok()) << store.status().message();
  auto plan = CompileTable("  - anomaly: {metric: row_count, absolute_change: {max_increase: 5}}\n");
  for (size_t i = 0; i < kAnomalySeriesRuns + 5; ++i) RecordRun(**store, "r" + std::to_string(i), 100 + i, 1);
  Report report = Unjudged(*plan, 140, 1);
  EvaluateHistoryChecks(*plan, HistoryContext{store->get()}, &report);
  const std::string& detail = Anomaly(report).detail_json;
  const std::string series = detail.substr(detail.find("\"series\": ["));
  EXPECT_EQ(html_test::Occurrences(series, "\"run_id\""), kAnomalySeriesRuns) << series;
  // The oldest listed is run r5 (value 105), the newest r34 (value 134).
  EXPECT_LT(series.find("\"r5\""), series.find("\"r34\"")) << series;
  EXPECT_EQ(series.find("\"r4\""), std::string::npos) << series;
  EXPECT_EQ(Anomaly(report).min_bound.number, std::nullopt);
  EXPECT_EQ(Anomaly(report).max_bound.number, 139);
}

TEST(AnomalyChecks, ColumnMeanZScoreSkipsRunsWithoutTheValue) {
  TempDir dir;
  auto store = OpenRunStore(dir.path() + "/s.db");
  ASSERT_TRUE(store.ok()) << store.status().message();
  auto plan = CompileTable("  - anomaly: {metric: amount.mean, z_score: {max: 3, window: 10, min_history: 3}}\n");
  const double means[] = {10.0, 10.5, 9.5, 10.2, 9.8};
  for (int i = 0; i < 5; ++i) RecordRun(**store, "m" + std::to_string(i), 100, means[i]);
  RecordRun(**store, "all-null", 100, std::nullopt);  // no mean: left out

  Report ok = Unjudged(*plan, 100, 10.4);
  EvaluateHistoryChecks(*plan, HistoryContext{store->get()}, &ok);
  EXPECT_TRUE(Anomaly(ok).passed) << Anomaly(ok).message;
  EXPECT_NE(Anomaly(ok).detail_json.find("\"expected\": 10,"), std::string::npos) << Anomaly(ok).detail_json;

  Report spike = Unjudged(*plan, 100, 14);
  EvaluateHistoryChecks(*plan, HistoryContext{store->get()}, &spike);
  EXPECT_FALSE(Anomaly(spike).passed);
  EXPECT_NE(Anomaly(spike).message.find("amount.mean 14 is "), std::string::npos) << Anomaly(spike).message;
  EXPECT_NE(Anomaly(spike).message.find("standard deviations above the mean 10 of the 5 earlier runs (max 3"),
            std::string::npos)
      << Anomaly(spike).message;

  // No value this run (every amount null): a note, not a failure.
  Report empty = Unjudged(*plan, 100, std::nullopt);
  EvaluateHistoryChecks(*plan, HistoryContext{store->get()}, &empty);
  EXPECT_TRUE(Anomaly(empty).passed);
  EXPECT_NE(Anomaly(empty).note.find("this run has no amount.mean"), std::string::npos) << Anomaly(empty).note;
}

TEST(AnomalyChecks, NoStorePassesWithANote) {
  auto plan = CompileTable("  - anomaly: {metric: row_count, z_score: {max: 3}}\n");
  Report report = Unjudged(*plan, 10, 1);
  EvaluateHistoryChecks(*plan, HistoryContext{nullptr, "--no-store was given"}, &report);
  EXPECT_TRUE(report.passed);
  EXPECT_EQ(Anomaly(report).note, "no run store (--no-store was given), so no history of row_count");
}

}  // namespace
}  // namespace griffin
