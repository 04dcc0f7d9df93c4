#include "connectors/sql/pushdown_runner.h"

#include <map>

#include <gtest/gtest.h>
#include <sqlite3.h>

#include "connectors/sql/sql_source.h"
#include "io/io_test_util.h"
#include "report/json_writer.h"
#include "rules/rule_loader.h"

namespace griffin::sql {
namespace {

using griffin::testing::TempDir;

void Exec(const std::string& file, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK) << (error ? error : "");
  sqlite3_free(error);
  sqlite3_close(db);
}

std::shared_ptr<const Plan> PlanOf(const std::string& body) {
  auto rules = LoadRuleText("griffin: 1\ndataset: d\n" + body, "r.yaml");
  EXPECT_TRUE(rules.ok()) << rules.status().message();
  auto plan = Plan::Compile(*rules, 0);
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  return *plan;
}

// The report's JSON without what differs between runs by design.
std::string Comparable(Report report) {
  report.elapsed_s = 0;
  report.threads = 1;
  report.input_bytes = 0;
  for (CheckReport& check : report.checks) check.ran_in = check.ran_in_reason = "";
  return ReportToJson(report);
}

class PushdownRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    file_ = dir_.Path("app.db");
    Exec(file_, "CREATE TABLE t(id INTEGER, amount REAL, region TEXT, code TEXT);"
                "INSERT INTO t VALUES (1, 2.5, 'eu', 'A1'), (2, -1, 'us', ''), (2, NULL, '', 'B22'),"
                " (4, 1e308, 'eu', NULL), (NULL, 7, 'moon', 'C3');");
  }
  Report Run(const std::string& rules, bool pushdown, ReadOptions options = {}, bool split = false) {
    auto plan = PlanOf(rules);
    RunOptions run;
    run.max_violations = 2;
    const std::string uri = "sqlite://" + file_ + "?table=t";
    Result<Report> report = [&]() -> Result<Report> {
      if (pushdown) return RunPushdown(plan, uri, options, run, split);
      ASSIGN_OR_RETURN(auto source, OpenSqlSource(uri, options, 0));
      return RunValidation(plan, *source, run);
    }();
    EXPECT_TRUE(report.ok()) << report.status().message();
    return report.ok() ? *report : Report{};
  }
  TempDir dir_;
  std::string file_;
};

TEST_F(PushdownRunnerTest, SameReportAsScanWhenChecksArePushed) {
  const std::string rules =
      "columns:\n  id: {type: int64, not_null: true, min: 1, unique: true}\n"
      "  amount: {type: float64, max: 100, finite: true}\n"
      "  region: {type: string, not_null: {value: true, severity: warn}, in: [eu, us], length: {max: 2}}\n"
      "table:\n  - row_count: {min: 6}\n  - sum: {column: id, max: 8}\n  - mean: {column: id, min: 1}\n"
      "  - null_fraction: {column: region, max: 0.1}\n  - distinct_count: {column: region, min: 3}\n"
      "  - max: {column: amount, max: 10}\n";
  Report scan = Run(rules, false);
  Report pushdown = Run(rules, true, {}, /*split=*/true);  // the sums fall back: no planner's scan
  EXPECT_EQ(Comparable(pushdown), Comparable(scan));
  EXPECT_EQ(Comparable(Run(rules, true)), Comparable(scan));
  EXPECT_GT(scan.bad_rows, 0);
  for (const CheckReport& check : pushdown.checks) {  // SQLite's SUM raises past int64: the engine sums
    const bool summed = check.name == "id.sum" || check.name == "id.mean";
    EXPECT_EQ(check.ran_in, summed ? "engine" : "database") << check.name;
  }
}

TEST_F(PushdownRunnerTest, FallbackChecksRunInTheEngineOverTheSameRows) {
  // SQLite has no RE2: regex falls back; row expressions and stddev always do.
  const std::string rules =
      "columns:\n  id: {type: int64, min: 2}\n  code: {type: string, regex: '^[A-Z][0-9]$'}\n"
      "  amount: {type: float64}\n"
      "rows:\n  - name: small\n    expr: \"amount < 5\"\n    severity: warn\n"
      "table:\n  - stddev: {column: amount, max: 1}\n";
  Report scan = Run(rules, false);
  Report pushdown = Run(rules, true, {}, /*split=*/true);
  EXPECT_EQ(Comparable(pushdown), Comparable(scan));
  std::map<std::string, std::pair<std::string, std::string>> places;
  for (const CheckReport& check : pushdown.checks) places[check.name] = {check.ran_in, check.ran_in_reason};
  EXPECT_EQ(places["id.min"].first, "database");
  EXPECT_EQ(places["code.regex"], std::make_pair(std::string("engine"), std::string("sqlite has no RE2 regular expressions")));
  EXPECT_EQ(places["small"].first, "engine");
  EXPECT_EQ(places["amount.stddev"].first, "engine");
  EXPECT_GT(scan.violations.size(), 0u);
}

TEST_F(PushdownRunnerTest, ThePlannerScansOnceWhenTheEngineMustReadEveryRow) {
  const std::string rules =
      "columns:\n  id: {type: int64, min: 2}\n  code: {type: string, regex: '^[A-Z][0-9]$'}\n"
      "rows:\n  - name: small\n    expr: \"id < 3\"\n";
  Report scan = Run(rules, false);
  Report planned = Run(rules, true);
  EXPECT_EQ(Comparable(planned), Comparable(scan));
  EXPECT_EQ(Comparable(planned), Comparable(Run(rules, true, {}, /*split=*/true)));
  const std::string why = "planned as one scan: code.regex, small cannot run in sqlite SQL, so the engine reads every "
                          "row anyway, and one read of every rule column costs less than the aggregate, the sample "
                          "queries and that read (--mode pushdown-split runs them)";
  std::map<std::string, std::pair<std::string, std::string>> places;
  for (const CheckReport& check : planned.checks) places[check.name] = {check.ran_in, check.ran_in_reason};
  ASSERT_EQ(places.size(), 5u);  // id.type, id.min, code.type, code.regex, small
  EXPECT_EQ(places["id.min"], std::make_pair(std::string("engine"), why));  // it could have been pushed
  EXPECT_EQ(places["code.regex"].second, "sqlite has no RE2 regular expressions; " + why);
  EXPECT_EQ(places["small"].second, "row expressions are evaluated by the engine; " + why);
  EXPECT_GT(scan.bad_rows, 0);
}

TEST(PushdownExplainTest, SaysWhichPlanTheRunTakes) {
  const std::string uri = "postgresql://u@h/db?table=t";
  auto pushed = PlanOf("columns:\n  id: {type: int64, min: 2}\n");
  EXPECT_NE(ExplainPushdown(*pushed, uri, false)->find("every check compiles to SQL"), std::string::npos);
  auto regex = PlanOf("columns:\n  id: {type: int64, min: 2}\n  s: {type: string, regex: 'a'}\n");
  const std::string planned = *ExplainPushdown(*regex, uri, false);
  EXPECT_NE(planned.find("pushdown plan (postgresql, "), std::string::npos) << planned;
  EXPECT_NE(planned.find("planned as one scan: s.regex cannot run in postgresql SQL"), std::string::npos) << planned;
  EXPECT_NE(ExplainPushdown(*regex, uri, true)->find("pushdown-split: "), std::string::npos);
  EXPECT_NE(ExplainPushdown(*regex, "duckdb:///x.duckdb?table=t", false)->find("every check compiles"),
            std::string::npos);  // DuckDB's regexes are RE2
}

TEST_F(PushdownRunnerTest, NullSpellingsAndFiltersAsInScanMode) {
  const std::string rules = "columns:\n  region: {type: string, not_null: true, unique: true}\n  code: {not_null: true}\n";
  ReadOptions options;
  options.null_values = {"", "moon"};
  options.where = "id IS NULL OR id < 4";
  Report scan = Run(rules, false, options);
  Report pushdown = Run(rules, true, options);
  EXPECT_EQ(Comparable(pushdown), Comparable(scan));
  EXPECT_EQ(pushdown.rows, 4);
}

TEST_F(PushdownRunnerTest, AMissingColumnIsASchemaErrorAsInScanMode) {
  const std::string rules = "columns:\n  id: {type: int64, min: 2}\n  gone: {type: string, not_null: true}\n";
  Report pushdown = Run(rules, true);
  EXPECT_EQ(Comparable(pushdown), Comparable(Run(rules, false)));
  ASSERT_EQ(pushdown.schema_errors.size(), 1u);
  EXPECT_EQ(pushdown.quality_score, 0.0);
}

TEST_F(PushdownRunnerTest, AHostileTableNameIsAMissingTable) {
  auto plan = PlanOf("columns:\n  id: {type: int64}\n");
  auto report = RunPushdown(plan, "sqlite://" + file_ + "?table=t%3B%20DROP%20TABLE%20t", {}, {});
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().code(), StatusCode::kInputError);
  EXPECT_NE(report.status().message().find("no such table"), std::string::npos) << report.status().message();
  EXPECT_EQ(Comparable(Run("columns:\n  id: {type: int64}\n", true)).find("\"rows\": 5") != std::string::npos, true);
}

TEST(PushdownModeTest, ModeArgumentThenRuleFileThenScan) {
  auto rules = LoadRuleText("griffin: 1\ndataset: d\nsource: {mode: pushdown}\ncolumns:\n  id: {type: int64}\n", "r");
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  EXPECT_TRUE(*ChoosePushdown("", *rules));
  EXPECT_FALSE(*ChoosePushdown("scan", *rules));
  rules->source.mode.clear();
  EXPECT_FALSE(*ChoosePushdown("", *rules));
  EXPECT_TRUE(*ChoosePushdown("pushdown", *rules));
  EXPECT_TRUE(*ChoosePushdown("pushdown-split", *rules));
  EXPECT_FALSE(PushdownSplit("pushdown", *rules));
  EXPECT_TRUE(PushdownSplit("pushdown-split", *rules));
  rules->source.mode = "pushdown-split";
  EXPECT_TRUE(PushdownSplit("", *rules));
  EXPECT_FALSE(PushdownSplit("scan", *rules));
  rules->source.mode.clear();
  auto bad = ChoosePushdown("fast", *rules);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kUsageError);
  EXPECT_EQ(bad.status().message(), "--mode: expected scan, pushdown or pushdown-split, got 'fast'");
}

TEST(PushdownModeTest, OneDatabaseInput) {
  auto rules = LoadRuleText("griffin: 1\ndataset: d\ncolumns:\n  id: {type: int64}\n", "r");
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  for (const char* uri : {"sqlite:///x.db?table=t", "duckdb:///x.duckdb?table=t", "postgresql://u@h/db?table=t"})
    EXPECT_TRUE(CheckPushdownInputs({uri}, *rules).ok()) << uri;
  const std::vector<std::vector<std::string>> refused = {
      {}, {"x.parquet"}, {"s3://b/x.parquet"}, {"sqlite:///x.db?table=t", "sqlite:///x.db?table=u"}};
  for (const auto& inputs : refused) {
    Status status = CheckPushdownInputs(inputs, *rules);
    EXPECT_EQ(status.code(), StatusCode::kUsageError);
    EXPECT_NE(status.message().find("validates one database input"), std::string::npos) << status.message();
  }
  rules->source.incremental_column = "id";  // increments run in pushdown too (their bounds join every query)
  EXPECT_TRUE(CheckPushdownInputs({"sqlite:///x.db?table=t"}, *rules).ok());
}

}  // namespace
}  // namespace griffin::sql
