#include "connectors/sql/pushdown_report.h"

#include <arrow/builder.h>
#include <gtest/gtest.h>

#include "report/json_writer.h"
#include "rules/rule_loader.h"

namespace griffin::sql {
namespace {

std::shared_ptr<const Plan> PlanOf(const std::string& body) {
  auto rules = LoadRuleText("griffin: 1\ndataset: d\n" + body, "r.yaml");
  EXPECT_TRUE(rules.ok()) << rules.status().message();
  auto plan = Plan::Compile(*rules, 0);
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  return *plan;
}

std::shared_ptr<arrow::Array> Ints(const std::vector<int64_t>& values) {
  arrow::Int64Builder builder;
  EXPECT_TRUE(builder.AppendValues(values).ok());
  return *builder.Finish();
}

// One row: the aggregate's cells as int64 columns.
std::vector<std::shared_ptr<arrow::RecordBatch>> Row(const std::vector<int64_t>& cells) {
  arrow::FieldVector fields;
  arrow::ArrayVector columns;
  for (size_t i = 0; i < cells.size(); ++i) {
    fields.push_back(arrow::field("c" + std::to_string(i), arrow::int64()));
    columns.push_back(Ints({cells[i]}));
  }
  return {arrow::RecordBatch::Make(arrow::schema(fields), 1, columns)};
}

PushdownQuery Compile(const Plan& plan) {
  PushdownSource source{"`v`", "", std::map<std::string, StoredType>{{"id", StoredType::kInteger}}};
  auto query = CompilePushdown(plan, *FindSqlDialect("spark"), source, 10);
  EXPECT_TRUE(query.ok()) << query.status().message();
  return *query;
}

TEST(PushdownReport, CountsAndSamplesMakeTheReport) {
  auto plan = PlanOf("columns:\n  id: {type: int64, min: 0}\ntable:\n  - row_count: {min: 5}\n");
  PushdownQuery query = Compile(*plan);
  ASSERT_FALSE(query.any_fallback());
  // rows, id.type (evaluated, violations), id.min (evaluated, violations), bad rows
  ASSERT_EQ(query.outputs.size(), 6u);
  auto aggregate = ReadAggregateRow(*plan, query, Row({4, 4, 0, 4, 1, 1}), "t");
  ASSERT_TRUE(aggregate.ok()) << aggregate.status().message();
  EXPECT_FALSE(NeedsSample(query.placements[0], *aggregate, 10));
  ASSERT_TRUE(NeedsSample(query.placements[1], *aggregate, 10));
  EXPECT_FALSE(NeedsSample(query.placements[1], *aggregate, 0));
  // the sample: _griffin_row, id
  auto sample = arrow::RecordBatch::Make(
      arrow::schema({arrow::field("_griffin_row", arrow::int64()), arrow::field("id", arrow::int64())}), 1,
      {Ints({(int64_t{1} << 33) + 2}), Ints({-3})});
  std::vector<std::pair<int, ViolationReport>> violations;
  ASSERT_TRUE(ReadSample(*plan, query.placements[1], {sample}, 10, nullptr, "t", &violations).ok());
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_EQ(violations[0].second.row, (int64_t{1} << 33) + 2);
  auto report = AssemblePushdownReport(*plan, query, *FindSqlDialect("spark"), *aggregate, violations, nullptr,
                                       nullptr, 10, "t");
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_EQ(report->rows, 4);
  EXPECT_EQ(report->bad_rows, 1);
  EXPECT_DOUBLE_EQ(report->quality_score, 0.75);
  EXPECT_FALSE(report->passed);  // id.min and row_count fail
  ASSERT_EQ(report->checks.size(), 3u);
  EXPECT_EQ(report->checks[1].violations, 1);
  EXPECT_EQ(report->checks[1].ran_in, "database");
  EXPECT_EQ(report->checks[1].ran_in_reason, "compiled to spark SQL with the engine's semantics");
  EXPECT_FALSE(report->checks[2].passed);
  EXPECT_NE(ReportToJson(*report).find("\"ran_in\": \"database\""), std::string::npos);
}

TEST(PushdownReport, ResultsOfTheWrongShapeAreInputErrors) {
  auto plan = PlanOf("columns:\n  id: {type: int64, min: 0}\n");
  PushdownQuery query = Compile(*plan);
  auto short_row = ReadAggregateRow(*plan, query, Row({4, 4}), "spark SQL over `v`");
  ASSERT_FALSE(short_row.ok());
  EXPECT_EQ(short_row.status().code(), StatusCode::kInputError);
  EXPECT_NE(short_row.status().message().find("spark SQL over `v`: the aggregate query gave no row of"),
            std::string::npos);
}

TEST(PushdownReport, FallbackRulesKeepTheEngineChecksAndMarkPushedBadRows) {
  auto plan = PlanOf("columns:\n  id: {type: int64, min: 0}\n  s: {type: string, regex: '^a'}\n");
  PushdownSource source{"`v`", "", std::map<std::string, StoredType>{{"id", StoredType::kInteger},
                                                                    {"s", StoredType::kText}}};
  auto query = CompilePushdown(*plan, *FindSqlDialect("spark"), source, 10);
  ASSERT_TRUE(query.ok());
  ASSERT_TRUE(query->any_fallback());
  RuleSet rules = FallbackRules(*plan, *query, *source.columns);
  ASSERT_EQ(rules.columns.size(), 2u);
  EXPECT_EQ(rules.columns[0].name, "s");
  EXPECT_EQ(rules.columns[1].name, kPushedBadColumn);
  // a fallback report of another row count is refused
  Report fallback;
  fallback.rows = 3;
  auto fallback_plan = Plan::Compile(rules, 0);
  ASSERT_TRUE(fallback_plan.ok());
  AggregateRow row;
  row.rows = 4;
  auto report = AssemblePushdownReport(*plan, *query, *FindSqlDialect("spark"), row, {}, &fallback,
                                       fallback_plan->get(), 10, "t");
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.status().message().find("the aggregate counted 4 rows, the engine's scan 3"), std::string::npos);
}

}  // namespace
}  // namespace griffin::sql
