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

}  // namespace
}  // namespace griffin
