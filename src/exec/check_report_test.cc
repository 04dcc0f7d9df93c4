#include "exec/check_report.h"

#include <cmath>

#include <gtest/gtest.h>

#include "rules/rule_loader.h"

namespace griffin {
namespace {

std::shared_ptr<const Plan> PlanOf(const std::string& body) {
  auto rules = LoadRuleText("griffin: 1\ndataset: d\n" + body, "r.yaml");
  EXPECT_TRUE(rules.ok()) << rules.status().message();
  auto plan = Plan::Compile(*rules, 0);
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  return *plan;
}

TEST(CheckReport, CountedCheckPassesAtItsMostly) {
  auto plan = PlanOf("columns:\n  a: {type: int64, min: {value: 0, mostly: 0.75, message: low}}\n");
  const CheckInfo& min = plan->checks()[1];  // after a.type
  CheckReport check = CountedCheckReport(min, 4, 1);
  EXPECT_EQ(check.name, "a.min");
  EXPECT_DOUBLE_EQ(check.pass_rate, 0.75);
  EXPECT_TRUE(check.passed);
  EXPECT_EQ(check.message, "low");
  EXPECT_FALSE(CountedCheckReport(min, 4, 2).passed);
  EXPECT_DOUBLE_EQ(CountedCheckReport(min, 0, 0).pass_rate, 1.0);
}

TEST(CheckReport, TableCheckJudgedInColumnUnits) {
  auto plan = PlanOf("columns:\n  d: {type: date}\n  x: {type: float64}\n"
                     "table:\n  - min: {column: d, min: 2024-01-02}\n  - max: {column: x, max: 1.5}\n"
                     "  - row_count: {min: 3}\n");
  const auto& tables = plan->table();
  TableObservation date{ValueType::kDate, std::nullopt, 19724};  // 2024-01-02
  CheckReport min = JudgeTableCheck(*plan, tables[0], date);
  EXPECT_TRUE(min.passed);
  EXPECT_EQ(min.observed.text, "2024-01-02");
  EXPECT_FALSE(JudgeTableCheck(*plan, tables[0], {ValueType::kDate, std::nullopt, 19723}).passed);
  CheckReport nan = JudgeTableCheck(*plan, tables[1], {ValueType::kFloat64, std::nan(""), std::nullopt});
  EXPECT_FALSE(nan.passed);  // NaN fails any bound
  EXPECT_EQ(nan.observed_text, "nan");
  EXPECT_FALSE(JudgeTableCheck(*plan, tables[1], {ValueType::kFloat64, std::nullopt, std::nullopt}).passed);
  CheckReport rows = JudgeTableCheck(*plan, tables[2], {ValueType::kFloat64, std::nullopt, 3});
  EXPECT_TRUE(rows.passed);
  EXPECT_EQ(rows.observed.text, "3");
}

}  // namespace
}  // namespace griffin
