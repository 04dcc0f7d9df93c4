#include "profile/drift.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "exec/test_batches.h"

namespace griffin {
namespace {

TableProfile Profile(const std::string& column, const std::vector<std::optional<std::string>>& values) {
  Batch batch;
  testing::AddTextColumn(&batch, column, values);
  TableProfile profile;
  profile.AddBatch(batch);
  return profile;
}

TEST(DriftTest, JensenShannonKnownValues) {
  EXPECT_DOUBLE_EQ(JensenShannon({1, 0}, {0, 1}), 1.0);   // disjoint: the maximum in log base 2
  EXPECT_DOUBLE_EQ(JensenShannon({3, 1}, {6, 2}), 0.0);   // the same shares
  // P = (1/2, 1/2), Q = (1, 0): M = (3/4, 1/4); JS = 1/2 KL(P||M) + 1/2 KL(Q||M)
  const double expected = 0.5 * (0.5 * std::log2(0.5 / 0.75) + 0.5 * std::log2(0.5 / 0.25)) +
                          0.5 * std::log2(1 / 0.75);
  EXPECT_NEAR(JensenShannon({1, 1}, {1, 0}), expected, 1e-15);
  EXPECT_EQ(JensenShannon({0, 0}, {0, 0}), 0.0);
}

TEST(DriftTest, CategoricalColumnsUseTheLargestShareChange) {
  const auto before = Profile("c", {"a", "a", "b", "b"});
  const auto after = Profile("c", {"a", "b", "b", "b", std::nullopt});
  const auto drifts = CompareProfiles(before, after);
  ASSERT_EQ(drifts.size(), 1u);
  EXPECT_EQ(drifts[0].measure, "linf");
  EXPECT_DOUBLE_EQ(*drifts[0].value, 0.25);  // a: 1/2 -> 1/4, b: 1/2 -> 3/4
  ASSERT_EQ(drifts[0].moved.size(), 2u);
  EXPECT_EQ(drifts[0].moved[0].label, "a");
}

TEST(DriftTest, NumericColumnsShareTheirBins) {
  const auto same = CompareProfiles(Profile("x", {"1", "2", "3"}), Profile("x", {"3", "2", "1", "2", "1", "3"}));
  EXPECT_EQ(same[0].measure, "js");
  EXPECT_DOUBLE_EQ(*same[0].value, 0.0);
  const auto apart = CompareProfiles(Profile("x", {"1", "1"}), Profile("x", {"9", "9"}));
  EXPECT_DOUBLE_EQ(*apart[0].value, 1.0);
}

TEST(DriftTest, ColumnsThatCannotBeComparedSayWhy) {
  Batch before_batch, after_batch;
  testing::AddTextColumn(&before_batch, "gone", {"1"});
  testing::AddTextColumn(&before_batch, "x", {"1"});
  testing::AddTextColumn(&before_batch, "nulls", {std::nullopt});
  testing::AddTextColumn(&after_batch, "x", {"a"});
  testing::AddTextColumn(&after_batch, "new", {"1"});
  testing::AddTextColumn(&after_batch, "nulls", {"1"});
  TableProfile before, after;
  before.AddBatch(before_batch);
  after.AddBatch(after_batch);
  const auto drifts = CompareProfiles(before, after);
  ASSERT_EQ(drifts.size(), 4u);
  EXPECT_EQ(drifts[0].note, "the type changed: int64 in the baseline, string now");
  EXPECT_EQ(drifts[1].note, "not in the baseline");
  EXPECT_EQ(drifts[2].note, "no values in the baseline");
  EXPECT_EQ(drifts[3].column, "gone");
  EXPECT_EQ(drifts[3].note, "not in the current data");
  for (const ColumnDrift& d : drifts) EXPECT_FALSE(d.value.has_value());
}

}  // namespace
}  // namespace griffin
