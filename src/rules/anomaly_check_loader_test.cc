// Anomaly checks (`anomaly:` items of `table:`) through LoadRuleText.
#include "rules/anomaly_check_loader.h"

#include <gtest/gtest.h>

#include "rules/rule_loader_test_util.h"

namespace griffin {
namespace {

using testing::BodyError;
using testing::LoadBody;

const std::string kColumns =
    "columns:\n"
    "  amount: {type: float64}\n"
    "  note.text: {type: string}\n"
    "table:\n";  // line 6; the first item is line 7

TEST(AnomalyChecks, EachStrategy) {
  Result<RuleSet> rules = LoadBody(
      kColumns +
      "  - row_count: {min: 1}\n"
      "  - anomaly: {metric: row_count, relative_change: {max_increase: 0.5, max_decrease: 0.3}}\n"
      "  - anomaly: {metric: amount.mean, z_score: {max: 3, window: 30}, season: 7, severity: warn}\n"
      "  - anomaly: {metric: note.text.null_fraction, absolute_change: {max_increase: 0.01}}\n"
      "  - anomaly: {metric: quality_score, z_score: {max: 2.5, window: 10, min_history: 3}, message: odd}\n");
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  EXPECT_EQ(rules->table.size(), 1u);
  ASSERT_EQ(rules->anomalies.size(), 4u);
  const AnomalyCheck& rows = rules->anomalies[0];
  EXPECT_EQ(rows.metric, AnomalyMetric::kRowCount);
  EXPECT_FALSE(rows.column);
  EXPECT_EQ(rows.strategy, AnomalyCheck::Strategy::kRelativeChange);
  EXPECT_EQ(rows.max_increase, 0.5);
  EXPECT_EQ(rows.max_decrease, 0.3);
  EXPECT_EQ(rows.season, 1);
  EXPECT_EQ(rows.location.line, 8);
  EXPECT_EQ(rows.CheckName(), "table.row_count.anomaly");
  const AnomalyCheck& mean = rules->anomalies[1];
  EXPECT_EQ(mean.metric, AnomalyMetric::kMean);
  EXPECT_EQ(mean.column, "amount");
  EXPECT_EQ(mean.max_z, 3);
  EXPECT_EQ(mean.window, 30);
  EXPECT_EQ(mean.min_history, 5);  // the default
  EXPECT_EQ(mean.season, 7);
  EXPECT_EQ(mean.options.severity, Severity::kWarn);
  EXPECT_EQ(mean.CheckName(), "amount.mean.anomaly");
  // A column name may hold dots: the metric is after the last one.
  EXPECT_EQ(rules->anomalies[2].column, "note.text");
  EXPECT_EQ(rules->anomalies[2].metric, AnomalyMetric::kNullFraction);
  EXPECT_EQ(rules->anomalies[2].strategy, AnomalyCheck::Strategy::kAbsoluteChange);
  EXPECT_FALSE(rules->anomalies[2].max_decrease);
  EXPECT_EQ(rules->anomalies[3].min_history, 3);
  EXPECT_EQ(rules->anomalies[3].options.message, "odd");
}

TEST(AnomalyChecks, WrongFormsNameTheLine) {
  const auto error = [](const std::string& item) { return BodyError(kColumns + "  - anomaly: " + item + "\n"); };
  EXPECT_EQ(error("{metric: rows, z_score: {max: 3}}"),
            "r.yaml:7: table[0].anomaly.metric: unknown metric 'rows' (expected row_count, bad_rows, quality_score, "
            "or COLUMN.null_count, COLUMN.null_fraction, COLUMN.distinct_count, COLUMN.mean, COLUMN.stddev, "
            "COLUMN.min, COLUMN.max)");
  EXPECT_EQ(error("{metric: price.mean, z_score: {max: 3}}"),
            "r.yaml:7: table[0].anomaly.metric: column 'price' is not declared in columns:");
  EXPECT_EQ(error("{metric: note.text.mean, z_score: {max: 3}}"),
            "r.yaml:7: table[0].anomaly.metric: mean applies only to int64 and float64 columns; note.text is string");
  EXPECT_EQ(error("{metric: row_count}"),
            "r.yaml:7: table[0].anomaly: needs a strategy: relative_change, absolute_change or z_score");
  EXPECT_NE(error("{z_score: {max: 3}}").find("needs a metric"), std::string::npos);
  EXPECT_NE(error("{metric: row_count, z_score: {max: 3}, relative_change: {max_increase: 1}}")
                .find("one strategy per anomaly check (z_score is given already)"),
            std::string::npos);
  EXPECT_NE(error("{metric: row_count, relative_change: {}}").find("needs max_increase or max_decrease"),
            std::string::npos);
  EXPECT_NE(error("{metric: row_count, relative_change: {max_decrease: 1.5}}").find("must be between 0 and 1"),
            std::string::npos);
  EXPECT_NE(error("{metric: row_count, z_score: {window: 30}}").find("needs max"), std::string::npos);
  EXPECT_NE(error("{metric: row_count, z_score: {max: 3, window: 1}}").find("expected a whole number from 2"),
            std::string::npos);
  EXPECT_NE(error("{metric: row_count, z_score: {max: 3, window: 4, min_history: 5}}")
                .find("min_history (5) cannot exceed window (4)"),
            std::string::npos);
  EXPECT_NE(error("{metric: row_count, z_score: {max: 3}, season: 0}").find("expected a whole number from 1"),
            std::string::npos);
  EXPECT_NE(error("{metric: row_count, z_score: {max: 3}, mostly: 0.9}").find("mostly does not apply"),
            std::string::npos);
  EXPECT_NE(error("{metric: row_count, z_score: {max: 3}, when: daily}").find("unknown key"), std::string::npos);
}

}  // namespace
}  // namespace griffin
