// Drift checks (`drift:` on a column) through LoadRuleText.
#include "rules/history_check_loader.h"

#include <gtest/gtest.h>

#include "rules/rule_loader_test_util.h"

namespace griffin {
namespace {

using testing::BodyError;
using testing::LoadBody;

TEST(DriftChecks, EachBaselineForm) {
  Result<RuleSet> rules = LoadBody(
      "columns:\n"
      "  a: {type: float64, drift: {baseline: last_passed, max: 0.1}}\n"               // line 4
      "  b: {drift: {baseline: 'run:3f2a', max: 0, severity: warn, message: moved}}\n"
      "  c: {drift: {baseline: 'profile:data/train.state', max: 1}}\n"
      "  d: {type: int64}\n");
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  const auto& columns = rules->columns;
  ASSERT_TRUE(columns[0].drift && columns[1].drift && columns[2].drift);
  EXPECT_FALSE(columns[3].drift);
  EXPECT_EQ(columns[0].drift->baseline, DriftCheck::Baseline::kLastPassed);
  EXPECT_EQ(columns[0].drift->max, 0.1);
  EXPECT_EQ(columns[0].drift->location.line, 4);
  EXPECT_EQ(columns[1].drift->baseline, DriftCheck::Baseline::kRun);
  EXPECT_EQ(columns[1].drift->reference, "3f2a");
  EXPECT_EQ(columns[1].drift->options.severity, Severity::kWarn);
  EXPECT_EQ(columns[1].drift->options.message, "moved");
  EXPECT_EQ(columns[2].drift->baseline, DriftCheck::Baseline::kProfile);
  EXPECT_EQ(columns[2].drift->reference, "data/train.state");
  EXPECT_EQ(columns[2].drift->baseline_text, "profile:data/train.state");
  // A drift check is no row check: the column's checks hold only its type.
  EXPECT_EQ(columns[0].checks.size(), 1u);
}

TEST(DriftChecks, WrongFormsNameTheLine) {
  EXPECT_EQ(BodyError("columns:\n  a: {drift: {baseline: yesterday, max: 0.1}}\n"),
            "r.yaml:4: columns.a.drift.baseline: unknown baseline 'yesterday' (expected last_passed, run:RUN_ID "
            "or profile:FILE)");
  EXPECT_NE(BodyError("columns:\n  a: {drift: {baseline: 'run:', max: 0.1}}\n").find("unknown baseline 'run:'"),
            std::string::npos);
  EXPECT_NE(BodyError("columns:\n  a: {drift: {max: 0.1}}\n").find("needs a baseline"), std::string::npos);
  EXPECT_NE(BodyError("columns:\n  a: {drift: {baseline: last_passed}}\n").find("needs max"), std::string::npos);
  EXPECT_NE(BodyError("columns:\n  a: {drift: {baseline: last_passed, max: 2}}\n").find("r.yaml:4:"),
            std::string::npos);
  EXPECT_NE(BodyError("columns:\n  a: {drift: {baseline: last_passed, max: 0.1, mostly: 0.9}}\n")
                .find("mostly does not apply to drift"),
            std::string::npos);
  EXPECT_NE(BodyError("columns:\n  a: {drift: {baseline: last_passed, max: 0.1, bins: 5}}\n")
                .find("unknown key"),
            std::string::npos);
  EXPECT_NE(BodyError("columns:\n  a: {drift: last_passed}\n").find("r.yaml:4:"), std::string::npos);
}

}  // namespace
}  // namespace griffin
