#include "profile/top_values.h"

#include <gtest/gtest.h>

#include <xxhash.h>

#include <string>

namespace griffin {
namespace {

void Add(TopValues* top, const std::string& value, int times = 1) {
  for (int i = 0; i < times; ++i) top->Add(XXH3_64bits(value.data(), value.size()), value);
}

TEST(TopValuesTest, ExactWhileFewDistinct) {
  TopValues top(4);
  Add(&top, "b", 3);
  Add(&top, "a", 3);
  Add(&top, "c", 5);
  const auto listed = top.Top(10);
  ASSERT_EQ(listed.size(), 3u);
  EXPECT_EQ(listed[0].value, "c");
  EXPECT_EQ(listed[1].value, "a");  // ties by value
  EXPECT_EQ(listed[2].count, 3);
  EXPECT_TRUE(top.exact());
}

TEST(TopValuesTest, HeavyHittersSurviveReductionWithBoundedError) {
  TopValues top(8);
  for (int i = 0; i < 1000; ++i) {
    Add(&top, "heavy");
    Add(&top, "rare" + std::to_string(i));
  }
  EXPECT_FALSE(top.exact());
  const auto listed = top.Top(1);
  ASSERT_EQ(listed[0].value, "heavy");
  EXPECT_LE(listed[0].count, 1000);
  EXPECT_GE(listed[0].count, 1000 - top.max_error());
  EXPECT_LE(top.max_error(), 2000 / 9 + 1);
}

TEST(TopValuesTest, MergeSumsCountsAndSerializesDeterministically) {
  TopValues a(4), b(4);
  Add(&a, "x", 2);
  Add(&b, "x", 3);
  Add(&b, std::string(300, 'y'));
  a.Merge(b);
  const auto listed = a.Top(2);
  EXPECT_EQ(listed[0].count, 5);
  EXPECT_TRUE(listed[1].cut);
  EXPECT_EQ(listed[1].value.size(), TopValues::kMaxValueBytes);
  ByteWriter out;
  a.Serialize(&out);
  TopValues back;
  ByteReader in(out.bytes());
  ASSERT_TRUE(back.Deserialize(&in));
  ByteWriter again;
  back.Serialize(&again);
  EXPECT_EQ(again.bytes(), out.bytes());
}

// Exact counts reduced at once keep the same guarantees as one-by-one adds:
// exact under 2 * capacity values, else heavy values kept within max_error.
TEST(TopValuesTest, ReducedExactCountsKeepHeavyValuesWithinTheirError) {
  TopValues few(4);
  std::vector<std::string> names = {"a", "b", "c"};
  std::vector<TopValues::Counted> counted;
  for (size_t i = 0; i < names.size(); ++i)
    counted.push_back({XXH3_64bits(names[i].data(), 1), names[i], static_cast<int64_t>(i + 1)});
  EXPECT_EQ(few.ReductionCut({1, 2, 3}), 0);
  few.MergeReduced(counted, 0);
  EXPECT_TRUE(few.exact());
  EXPECT_EQ(few.Top(1)[0].value, "c");
  EXPECT_EQ(few.Top(1)[0].count, 3);

  TopValues top(8);
  std::vector<std::string> values;
  std::vector<int64_t> counts;
  for (int i = 0; i < 1000; ++i) {
    values.push_back("rare" + std::to_string(i));
    counts.push_back(1 + i % 3);
  }
  values.push_back("heavy");
  counts.push_back(1000);
  const int64_t cut = top.ReductionCut(counts);
  EXPECT_EQ(cut, 3);  // the 9th largest count
  std::vector<TopValues::Counted> kept;
  for (size_t i = 0; i < values.size(); ++i)
    if (counts[i] > cut) kept.push_back({XXH3_64bits(values[i].data(), values[i].size()), values[i], counts[i]});
  top.MergeReduced(kept, cut);
  EXPECT_FALSE(top.exact());
  EXPECT_EQ(top.max_error(), 3);
  ASSERT_EQ(top.Top(5).size(), 1u);
  EXPECT_EQ(top.Top(5)[0].value, "heavy");
  EXPECT_EQ(top.Top(5)[0].count, 997);
}

}  // namespace
}  // namespace griffin
