// LeavesNothing and EmptyRangeProblem: which pairs of bounds contradict, per column type.
#include "rules/bound_ranges.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace griffin::rules_internal {
namespace {

Literal Int(int64_t value) {
  Literal literal;
  literal.kind = Literal::Kind::kInt;
  literal.int_value = value;
  literal.text = std::to_string(value);
  return literal;
}

Literal Float(double value, const std::string& text) {
  Literal literal;
  literal.kind = Literal::Kind::kFloat;
  literal.float_value = value;
  literal.text = text;
  return literal;
}

Literal Temporal(Literal::Kind kind, int64_t value, const std::string& text) {
  Literal literal;
  literal.kind = kind;
  literal.int_value = value;
  literal.text = text;
  return literal;
}

bool Empty(ValueType type, const Literal& low, bool low_inclusive, const Literal& high,
           bool high_inclusive) {
  return LeavesNothing(type, RangeEnd{"lo", &low, low_inclusive},
                       RangeEnd{"hi", &high, high_inclusive});
}

constexpr bool kIncl = true;
constexpr bool kExcl = false;

TEST(BoundRanges, Int64MinAndMax) {
  EXPECT_TRUE(Empty(ValueType::kInt64, Int(10), kIncl, Int(0), kIncl));
  EXPECT_FALSE(Empty(ValueType::kInt64, Int(5), kIncl, Int(5), kIncl));  // exactly 5 passes
  EXPECT_FALSE(Empty(ValueType::kInt64, Int(0), kIncl, Int(10), kIncl));
  EXPECT_TRUE(Empty(ValueType::kInt64, Int(std::numeric_limits<int64_t>::max()), kIncl,
                    Int(std::numeric_limits<int64_t>::max() - 1), kIncl));
}

TEST(BoundRanges, Int64StrictBoundsAreDiscrete) {
  EXPECT_TRUE(Empty(ValueType::kInt64, Int(5), kExcl, Int(5), kExcl));   // gt 5, lt 5
  EXPECT_TRUE(Empty(ValueType::kInt64, Int(1), kExcl, Int(2), kExcl));   // no integer in (1, 2)
  EXPECT_FALSE(Empty(ValueType::kInt64, Int(1), kExcl, Int(3), kExcl));  // 2
  EXPECT_TRUE(Empty(ValueType::kInt64, Int(3), kIncl, Int(3), kExcl));   // min 3, lt 3
  EXPECT_TRUE(Empty(ValueType::kInt64, Int(3), kExcl, Int(3), kIncl));   // gt 3, max 3
  EXPECT_FALSE(Empty(ValueType::kInt64, Int(3), kIncl, Int(4), kExcl));  // 3
}

TEST(BoundRanges, Int64WithFractionalBounds) {
  EXPECT_TRUE(Empty(ValueType::kInt64, Float(1.5, "1.5"), kIncl, Float(1.7, "1.7"), kIncl));
  EXPECT_FALSE(Empty(ValueType::kInt64, Float(1.5, "1.5"), kIncl, Float(2.5, "2.5"), kIncl));
  EXPECT_TRUE(Empty(ValueType::kInt64, Float(1.5, "1.5"), kExcl, Int(2), kExcl));
}

TEST(BoundRanges, Float64IsContinuous) {
  EXPECT_FALSE(Empty(ValueType::kFloat64, Float(1, "1"), kExcl, Float(2, "2"), kExcl));
  EXPECT_FALSE(Empty(ValueType::kFloat64, Float(1, "1"), kIncl, Float(1, "1"), kIncl));
  EXPECT_TRUE(Empty(ValueType::kFloat64, Float(1, "1"), kIncl, Float(1, "1"), kExcl));
  EXPECT_TRUE(Empty(ValueType::kFloat64, Float(1, "1"), kExcl, Float(1, "1"), kIncl));
  EXPECT_TRUE(Empty(ValueType::kFloat64, Float(2, "2"), kIncl, Float(1, "1"), kIncl));
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(Empty(ValueType::kFloat64, Float(-inf, "-.inf"), kIncl, Float(inf, ".inf"), kIncl));
  EXPECT_TRUE(Empty(ValueType::kFloat64, Float(inf, ".inf"), kIncl, Float(-inf, "-.inf"), kIncl));
  EXPECT_TRUE(Empty(ValueType::kFloat64, Float(inf, ".inf"), kExcl, Float(inf, ".inf"), kIncl));
}

TEST(BoundRanges, DatesCompareDaysWithTimestampsAtMidnight) {
  constexpr int64_t kDay = 86400LL * 1000000;
  const Literal day_10 = Temporal(Literal::Kind::kDate, 10, "1970-01-11");
  const Literal day_12 = Temporal(Literal::Kind::kDate, 12, "1970-01-13");
  EXPECT_TRUE(Empty(ValueType::kDate, day_12, kIncl, day_10, kIncl));
  EXPECT_FALSE(Empty(ValueType::kDate, day_10, kExcl, day_12, kExcl));  // day 11
  EXPECT_TRUE(Empty(ValueType::kDate, day_10, kExcl, Temporal(Literal::Kind::kDate, 11,
                                                              "1970-01-12"), kExcl));
  // Noon to 18:00 of day 10 holds no midnight, so no date passes.
  const Literal noon = Temporal(Literal::Kind::kTimestamp, 10 * kDay + kDay / 2, "noon");
  const Literal evening = Temporal(Literal::Kind::kTimestamp, 10 * kDay + kDay * 3 / 4, "18h");
  EXPECT_TRUE(Empty(ValueType::kDate, noon, kIncl, evening, kIncl));
  EXPECT_FALSE(Empty(ValueType::kTimestamp, noon, kIncl, evening, kIncl));
  EXPECT_FALSE(Empty(ValueType::kDate, noon, kIncl, day_12, kIncl));  // day 11 and 12
}

TEST(BoundRanges, NowIsNeverContradictory) {
  Literal now;
  now.kind = Literal::Kind::kNow;
  now.text = "now";
  const Literal future = Temporal(Literal::Kind::kTimestamp, 1LL << 60, "far");
  const Literal past = Temporal(Literal::Kind::kTimestamp, -(1LL << 60), "long ago");
  EXPECT_FALSE(Empty(ValueType::kTimestamp, now, kIncl, past, kIncl));
  EXPECT_FALSE(Empty(ValueType::kTimestamp, future, kIncl, now, kExcl));
}

TEST(BoundRanges, ProblemTextNamesBothKeys) {
  const Literal ten = Int(10);
  const Literal zero = Int(0);
  const Literal five = Int(5);
  EXPECT_EQ(EmptyRangeProblem(ValueType::kInt64, {"min", &ten, true}, {"max", &zero, true}),
            "min 10 is greater than max 0");
  EXPECT_EQ(EmptyRangeProblem(ValueType::kInt64, {"gt", &five, false}, {"lt", &five, false}),
            "gt 5 and lt 5 leave no value that can pass");
  EXPECT_EQ(EmptyRangeProblem(ValueType::kInt64, {"min", &zero, true}, {"max", &ten, true}),
            std::nullopt);
}

}  // namespace
}  // namespace griffin::rules_internal
