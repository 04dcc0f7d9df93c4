#include "plan/plan.h"

#include <gtest/gtest.h>

#include "rules/rule_loader.h"

namespace griffin {
namespace {

std::shared_ptr<const Plan> Compile(const std::string& text, int64_t now = 0) {
  auto rules = LoadRuleText(text, "r.yaml");
  EXPECT_TRUE(rules.ok()) << rules.status().message();
  auto plan = Plan::Compile(*rules, now);
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  return *plan;
}

TEST(PlanTest, ChecksFollowFileOrderAcrossSections) {
  auto plan = Compile(R"(griffin: 1
dataset: d
table:
  - row_count: {min: 1}
columns:
  b:
    type: int64
    max: 5
    not_null: true
  a:
    unique: true
rows:
  - name: r
    expr: "b > 0"
)");
  std::vector<std::string> names;
  for (const CheckInfo& c : plan->checks()) names.push_back(c.name);
  EXPECT_EQ(names, (std::vector<std::string>{"table.row_count", "b.type", "b.max", "b.not_null", "a.unique", "r"}));
  // indices inside the column plans point at the sorted positions
  EXPECT_EQ(plan->checks()[plan->columns()[0].checks[1].check_index].name, "b.max");
  EXPECT_EQ(plan->rows()[0].check_index, 5);
  EXPECT_EQ(plan->table()[0].check_index, 0);
}

TEST(PlanTest, NowAndBoundsResolve) {
  auto plan = Compile(R"(griffin: 1
dataset: d
columns:
  t:
    type: timestamp
    max: now
  d:
    type: date
    min: '2020-01-02'
    max: now
  i:
    type: int64
    min: 0.5
)", 123456789);
  const auto& t = plan->columns()[0].checks[1];
  EXPECT_EQ(t.bound_int, 123456789);
  const auto& d_min = plan->columns()[1].checks[1];
  EXPECT_EQ(d_min.bound_int, 18263);  // days from 1970-01-01 to 2020-01-02
  EXPECT_TRUE(plan->columns()[1].checks[2].date_vs_micros);
  const auto& i_min = plan->columns()[2].checks[1];
  EXPECT_TRUE(i_min.bound_is_float);
  EXPECT_DOUBLE_EQ(i_min.bound_float, 0.5);
}

TEST(PlanTest, ExpressionColumnsBecomeSlots) {
  auto plan = Compile(R"(griffin: 1
dataset: d
columns:
  amount:
    type: float64
rows:
  - name: r
    expr: "kind != 'refund' or amount < 0"
)");
  ASSERT_EQ(plan->columns().size(), 2u);
  EXPECT_EQ(plan->columns()[1].name, "kind");
  EXPECT_FALSE(plan->columns()[1].declared);
  EXPECT_EQ(plan->ReferencedColumns(), (std::vector<std::string>{"amount", "kind"}));
}

}  // namespace
}  // namespace griffin
