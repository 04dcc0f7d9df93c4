#include "api/feature_columns.h"

#include <gtest/gtest.h>

#include "rules/rule_loader.h"

namespace griffin {
namespace {

std::shared_ptr<const Plan> Compile(const char* text) {
  auto rules = LoadRuleText(text, "<test>");
  EXPECT_TRUE(rules.ok()) << rules.status().message();
  auto plan = Plan::Compile(*rules, 0);
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  return *plan;
}

const char* kRules = R"(griffin: 1
dataset: t
columns:
  amount: {type: float64, not_null: true}
  n: {type: int64, not_null: true}
  at: {type: timestamp, not_null: true}
  flag: {type: bool, not_null: true}
  currency: {type: string, not_null: true, in: [USD, EUR, GBP]}
  note: {type: string, not_null: true}
  maybe: {type: float64}
  soft: {type: int64, not_null: {value: true, severity: warn}}
  kind: {type: string, not_null: true, in: {values: [a, b], severity: warn}}
)";

TEST(FeatureColumnsTest, DefaultsPickEveryColumnTheRulesGuarantee) {
  auto plan = Compile(kRules);
  auto narrow = PlanFeatureColumns(*plan, {}, {}, /*narrow=*/true);
  ASSERT_TRUE(narrow.ok()) << narrow.status().message();
  std::vector<std::string> names;
  std::vector<FeatureDType> dtypes;
  for (const FeatureColumn& c : *narrow) {
    names.push_back(c.name);
    dtypes.push_back(c.dtype);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"amount", "n", "at", "flag", "currency"}));
  EXPECT_EQ(dtypes, (std::vector<FeatureDType>{FeatureDType::kFloat32, FeatureDType::kInt32, FeatureDType::kInt32,
                                               FeatureDType::kBool, FeatureDType::kInt32}));
  EXPECT_EQ((*narrow)[4].vocabulary, (std::vector<std::string>{"USD", "EUR", "GBP"}));
  EXPECT_EQ((*narrow)[0].slot, plan->FindColumn("amount"));

  auto wide = PlanFeatureColumns(*plan, {"at", "amount"}, {}, /*narrow=*/false);
  ASSERT_TRUE(wide.ok());
  EXPECT_EQ((*wide)[0].dtype, FeatureDType::kInt64);
  EXPECT_EQ((*wide)[1].dtype, FeatureDType::kFloat64);
}

TEST(FeatureColumnsTest, RefusesColumnsThatMayBeNullOrAreFreeText) {
  auto plan = Compile(kRules);
  for (const char* name : {"maybe", "soft", "note", "kind", "nope"}) {
    auto columns = PlanFeatureColumns(*plan, {name}, {}, true);
    ASSERT_FALSE(columns.ok()) << name;
    EXPECT_EQ(columns.status().code(), StatusCode::kUsageError);
    EXPECT_NE(columns.status().message().find(std::string("'") + name + "'"), std::string::npos)
        << columns.status().message();
  }
  auto twice = PlanFeatureColumns(*plan, {"n", "n"}, {}, true);
  EXPECT_FALSE(twice.ok());
}

TEST(FeatureColumnsTest, DTypeOverrides) {
  auto plan = Compile(kRules);
  auto columns = PlanFeatureColumns(*plan, {"at", "currency", "flag"},
                                    {{"at", "float64"}, {"currency", "int64"}, {"flag", "float32"}}, true);
  ASSERT_TRUE(columns.ok()) << columns.status().message();
  EXPECT_EQ((*columns)[0].dtype, FeatureDType::kFloat64);
  EXPECT_EQ((*columns)[1].dtype, FeatureDType::kInt64);
  EXPECT_EQ((*columns)[2].dtype, FeatureDType::kFloat32);
  EXPECT_FALSE(PlanFeatureColumns(*plan, {"amount"}, {{"amount", "int32"}}, true).ok());   // float -> int
  EXPECT_FALSE(PlanFeatureColumns(*plan, {"currency"}, {{"currency", "float32"}}, true).ok());
  EXPECT_FALSE(PlanFeatureColumns(*plan, {"n"}, {{"n", "complex64"}}, true).ok());
  EXPECT_FALSE(PlanFeatureColumns(*plan, {"n"}, {{"amount", "float64"}}, true).ok());     // not selected
}

}  // namespace
}  // namespace griffin
