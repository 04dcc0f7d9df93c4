#include "plan/plan_explain.h"

#include <gtest/gtest.h>

#include "rules/rule_loader.h"

namespace griffin {
namespace {

TEST(PlanExplainTest, SaysWhichPathEachRegexTakes) {
  auto rules = LoadRuleText(R"(griffin: 1
dataset: t
columns:
  email:
    regex: '^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$'
  word:
    regex: '\bcat\b'
    contains: 'at'
  n:
    type: int64
    min: 0
)", "rules.yaml");
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  auto plan = Plan::Compile(*rules, 0);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  const std::string text = ExplainPlan(**plan);
  EXPECT_EQ(text.rfind("plan of <text>: 5 checks\n", 0), 0u) << text;
  EXPECT_NE(text.find("email.regex  regex /^[^@\\s]+@[^@\\s]+\\.[A-Za-z]{2,}$/  path: dfa ("), std::string::npos) << text;
  EXPECT_NE(text.find("word.regex  regex /\\bcat\\b/  path: re2 (the escape \\b is not in the DFA subset)"),
            std::string::npos) << text;
  EXPECT_NE(text.find("word.contains  contains /at/  path: re2 (contains: a partial match)"), std::string::npos) << text;
  EXPECT_NE(text.find("  n.min  min\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace griffin
