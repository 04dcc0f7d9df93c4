#include "profile/value_counts.h"

#include <gtest/gtest.h>

#include <map>

namespace griffin {
namespace {

TEST(ValueCountsTest, CountsEachHashOnceAndKeepsItsFirstIndex) {
  ValueCounts counts;
  std::map<uint64_t, std::pair<uint32_t, uint32_t>> expected;  // hash -> (count, first)
  for (uint32_t row = 0; row < 10000; ++row) {
    const uint64_t hash = (row % 777) * 0x9E3779B97F4A7C15ULL;  // 0 included: a real hash
    counts.Add(hash, row);
    auto [it, inserted] = expected.try_emplace(hash, 0, row);
    ++it->second.first;
  }
  EXPECT_EQ(counts.size(), 777u);
  size_t seen = 0;
  for (const ValueCounts::Entry& e : counts.entries()) {
    EXPECT_EQ(e.first, seen);  // in the order of first adds
    ASSERT_TRUE(expected.contains(e.hash));
    EXPECT_EQ(e.count, expected[e.hash].first);
    EXPECT_EQ(e.first, expected[e.hash].second);
    ++seen;
  }
  EXPECT_EQ(seen, 777u);
}

TEST(ValueCountsTest, WeightsAdd) {
  ValueCounts counts;
  counts.Reserve(1000);
  EXPECT_TRUE(counts.Add(42, 0, 5));
  EXPECT_FALSE(counts.Add(42, 9, 2));
  counts.Add(43, 1);
  uint32_t total = 0;
  for (const ValueCounts::Entry& e : counts.entries())
    if (e.hash == 42) {
      EXPECT_EQ(e.count, 7u);
      EXPECT_EQ(e.first, 0u);
    }
  for (const ValueCounts::Entry& e : counts.entries()) total += e.count;
  EXPECT_EQ(total, 8u);
}

}  // namespace
}  // namespace griffin
