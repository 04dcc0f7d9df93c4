#include "exec/column_metrics.h"

#include <cmath>

#include <gtest/gtest.h>

namespace griffin {
namespace {

TypedColumn Floats(const std::vector<double>& values, const std::vector<uint8_t>& valid) {
  TypedColumn column;
  column.type = ValueType::kFloat64;
  column.num_rows = static_cast<int64_t>(values.size());
  column.owned_floats = values;
  column.floats = column.owned_floats.data();
  column.valid = valid;
  return column;
}

TEST(ColumnMetricsTest, MomentsExtremesNulls) {
  MetricNeeds needs;
  needs.moments = needs.extremes = needs.distinct = needs.quantiles = true;
  ColumnMetrics metrics(ValueType::kFloat64, needs);
  metrics.AddBatch(Floats({1, 2, 0, 4}, {1, 1, 0, 1}), nullptr);
  metrics.AddBatch(Floats({4}, {1}), nullptr);
  EXPECT_EQ(metrics.count(), 4);
  EXPECT_EQ(metrics.nulls(), 1);
  EXPECT_DOUBLE_EQ(metrics.sum(), 11);
  EXPECT_DOUBLE_EQ(*metrics.mean(), 2.75);
  EXPECT_NEAR(*metrics.stddev(), std::sqrt(((1.75 * 1.75) + (0.75 * 0.75) + 2 * (1.25 * 1.25)) / 3), 1e-12);
  EXPECT_EQ(*metrics.min_float(), 1);
  EXPECT_EQ(*metrics.max_float(), 4);
  EXPECT_EQ(metrics.distinct(), 3);
  EXPECT_EQ(*metrics.quantile_float(0.5), 2);
}

TEST(ColumnMetricsTest, SpilledDistinctCountIsExact) {
  MetricNeeds needs;
  needs.distinct = true;
  ColumnMetrics in_memory(ValueType::kFloat64, needs), spilled(ValueType::kFloat64, needs);
  std::vector<double> values;
  for (int i = 0; i < 5000; ++i) values.push_back((i * 7919) % 1500 + (i % 3 == 0 ? 0.5 : 0.0));
  values.push_back(-0.0);  // one key with 0.0
  values.push_back(0.0);
  values.push_back(std::nan(""));
  values.push_back(-std::nan(""));  // one NaN
  const std::vector<uint8_t> valid(values.size(), 1);
  const TypedColumn column = Floats(values, valid);
  in_memory.AddBatch(column, nullptr);
  spilled.AddBatch(Floats({1, 2, 3}, {1, 1, 1}), nullptr);
  in_memory.AddBatch(Floats({1, 2, 3}, {1, 1, 1}), nullptr);
  EXPECT_GT(spilled.distinct_memory_bytes(), 0);
  auto files = KeySpill::Open(::testing::TempDir());
  ASSERT_TRUE(files.ok()) << files.status().message();
  spilled.SpillDistinct(std::move(*files));
  EXPECT_EQ(spilled.distinct_memory_bytes(), 0);
  spilled.AddBatch(column, nullptr);
  ASSERT_TRUE(spilled.FinishDistinctSpill().ok());
  EXPECT_TRUE(spilled.has_exact_distinct());
  EXPECT_EQ(spilled.distinct(), in_memory.distinct());
  EXPECT_GT(spilled.distinct(), 1500);
  EXPECT_GT(spilled.distinct_spill()->bytes(), 0);
}

TEST(ColumnMetricsTest, NanPropagates) {
  MetricNeeds needs;
  needs.moments = needs.extremes = true;
  ColumnMetrics metrics(ValueType::kFloat64, needs);
  metrics.AddBatch(Floats({1, NAN, 3}, {1, 1, 1}), nullptr);
  EXPECT_TRUE(std::isnan(*metrics.mean()));
  EXPECT_TRUE(std::isnan(*metrics.min_float()));
  EXPECT_TRUE(std::isnan(*metrics.max_float()));
}

TEST(ColumnMetricsTest, InfinityMeanFollowsIeee) {
  MetricNeeds needs;
  needs.moments = true;
  ColumnMetrics metrics(ValueType::kFloat64, needs);
  metrics.AddBatch(Floats({1, INFINITY, 3}, {1, 1, 1}), nullptr);
  EXPECT_EQ(*metrics.mean(), INFINITY);
}

TEST(ColumnMetricsTest, CompensatedSumIsAccurate) {
  MetricNeeds needs;
  needs.moments = true;
  ColumnMetrics metrics(ValueType::kFloat64, needs);
  metrics.AddBatch(Floats({1e16, 1, -1e16, 1}, {1, 1, 1, 1}), nullptr);
  EXPECT_DOUBLE_EQ(metrics.sum(), 2);
}

TEST(ColumnMetricsTest, StddevNeedsTwoValuesAndMalformedRowsAreSkipped) {
  MetricNeeds needs;
  needs.moments = true;
  ColumnMetrics metrics(ValueType::kFloat64, needs);
  std::vector<uint8_t> malformed = {0, 1};
  metrics.AddBatch(Floats({5, 0}, {1, 0}), malformed.data());
  EXPECT_FALSE(metrics.stddev().has_value());
  EXPECT_EQ(metrics.nulls(), 0);
}

// An integer column's sum and mean come from its exact integer sum, so they
// are the same whether or not its running moments (stddev's) are kept.
TEST(ColumnMetricsTest, IntegerMeanAndSumNeedNoRunningMoments) {
  TypedColumn column;
  column.type = ValueType::kInt64;
  column.num_rows = 5;
  column.owned_ints = {3, 9007199254740993, -7, 0, 2};
  column.ints = column.owned_ints.data();
  column.valid = {1, 1, 1, 0, 1};
  MetricNeeds mean_only, with_stddev;
  mean_only.moments = with_stddev.moments = with_stddev.spread = true;
  ColumnMetrics lean(ValueType::kInt64, mean_only), full(ValueType::kInt64, with_stddev);
  lean.AddBatch(column, nullptr);
  full.AddBatch(column, nullptr);
  EXPECT_EQ(lean.sum(), full.sum());
  EXPECT_EQ(*lean.mean(), *full.mean());
  EXPECT_EQ(*lean.mean(), static_cast<double>(static_cast<long double>(9007199254740991) / 4));
  EXPECT_EQ(lean.nulls(), 1);
  EXPECT_TRUE(full.stddev().has_value());
}

}  // namespace
}  // namespace griffin
