#include "profile/profile_facts.h"

#include <gtest/gtest.h>

#include <cmath>

#include <string>
#include <vector>

namespace griffin {
namespace {

ColumnState Texts(const std::vector<std::string>& values) {
  std::vector<std::string_view> views(values.begin(), values.end());
  std::vector<uint8_t> is_null(values.size(), 0);
  ColumnState state;
  state.AddText(views.data(), is_null.data(), nullptr, static_cast<int64_t>(views.size()));
  return state;
}

TEST(ProfileFactsTest, InfersTheTypeMostValuesReadAs) {
  EXPECT_EQ(InferType(Texts({"0", "1", "1"})).type, ValueType::kInt64);  // ints beat bools on a tie
  EXPECT_EQ(InferType(Texts({"true", "f", "1"})).type, ValueType::kBool);
  EXPECT_EQ(InferType(Texts({"1", "2.5"})).type, ValueType::kFloat64);
  EXPECT_EQ(InferType(Texts({"2024-01-01"})).type, ValueType::kDate);
  EXPECT_EQ(InferType(Texts({"2024-01-01T00:00:00Z"})).type, ValueType::kTimestamp);
  std::vector<std::string> mostly(19, "5");
  mostly.push_back("five");
  const InferredType inferred = InferType(Texts(mostly));
  EXPECT_EQ(inferred.type, ValueType::kInt64);
  EXPECT_DOUBLE_EQ(inferred.confidence, 0.95);
  const InferredType text = InferType(Texts({"a", "b", "1"}));
  EXPECT_EQ(text.type, ValueType::kString);
  EXPECT_NEAR(text.confidence, 2.0 / 3, 1e-12);
  EXPECT_EQ(InferType(ColumnState()).confidence, 0);
}

TEST(ProfileFactsTest, HistogramBinsCountEveryFiniteValue) {
  const ColumnState s = Texts({"0", "1", "2", "10", "inf", "nan"});
  const auto bins = NumberHistogram(s);
  ASSERT_EQ(bins.size(), static_cast<size_t>(kHistogramBins));
  int64_t total = 0;
  for (const HistogramBin& bin : bins) total += bin.count;
  EXPECT_EQ(total, 4);
  EXPECT_EQ(bins.front().lo, 0);
  EXPECT_EQ(bins.back().hi, 10);
  EXPECT_EQ(bins.back().count, 1);
  EXPECT_EQ(NumberHistogram(Texts({"3", "3"})).size(), 1u);
  EXPECT_TRUE(NumberHistogram(Texts({"x"})).empty());
}

// max - min overflows for values near the largest double: the bins are
// computed in halves (the CI's test_profile.py::test_wrong_inputs crashed on
// 1e308 and -1e308 when a bin's position became inf / inf).
TEST(ProfileFactsTest, HistogramOfValuesNearTheLargestDoubleIsFinite) {
  const auto bins = NumberHistogram(Texts({"1e308", "1e308", "-1e308", "1.7e308", "-1.7e308"}));
  ASSERT_EQ(bins.size(), static_cast<size_t>(kHistogramBins));
  int64_t total = 0;
  for (const HistogramBin& bin : bins) {
    EXPECT_TRUE(std::isfinite(bin.lo) && std::isfinite(bin.hi) && bin.lo < bin.hi) << bin.lo << " " << bin.hi;
    total += bin.count;
  }
  EXPECT_EQ(total, 5);
  EXPECT_EQ(bins.front().lo, -1.7e308);
  EXPECT_EQ(bins.back().hi, 1.7e308);
  EXPECT_EQ(bins.front().count, 1);
  EXPECT_EQ(bins.back().count, 1);
}

TEST(ProfileFactsTest, TimesFormatAsTheColumnsType) {
  EXPECT_EQ(FormatTime(-1, ValueType::kDate), "1969-12-31");
  EXPECT_EQ(FormatTime(86400LL * 1000000, ValueType::kTimestamp), "1970-01-02T00:00:00Z");
  EXPECT_EQ(QuantileName(0.05), "p5");
}

}  // namespace
}  // namespace griffin
