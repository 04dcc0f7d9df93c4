#include "exec/int_key_set.h"

#include <limits>
#include <random>
#include <unordered_map>

#include <gtest/gtest.h>

namespace griffin {
namespace {

TEST(IntKeySetTest, FirstOccurrenceIsRemembered) {
  IntKeySet set;
  EXPECT_EQ(set.InsertOrFind(7, 0), -1);
  EXPECT_EQ(set.InsertOrFind(0, 1), -1);   // key 0 is a key like any other
  EXPECT_EQ(set.InsertOrFind(7, 2), 0);
  EXPECT_EQ(set.InsertOrFind(0, 3), 1);
  EXPECT_EQ(set.InsertOrFind(~uint64_t{0}, 4), -1);
  EXPECT_EQ(set.InsertOrFind(~uint64_t{0}, 5), 4);
  EXPECT_EQ(set.size(), 3);
}

TEST(IntKeySetTest, AgreesWithAMapThroughGrowthAndLargeRows) {
  IntKeySet set;
  std::unordered_map<uint64_t, int64_t> first;
  std::mt19937_64 rng(5);
  for (int64_t row = 0; row < 300000; ++row) {
    // Few distinct high bits, many repeats, and sequential ids: the shapes of real keys.
    const uint64_t key = row % 3 == 0 ? rng() % 50000 : row % 3 == 1 ? (rng() % 1000) << 40 : uint64_t(row);
    const int64_t at = row + (int64_t{1} << 40);
    auto [it, inserted] = first.emplace(key, at);
    ASSERT_EQ(set.InsertOrFind(key, at), inserted ? -1 : it->second) << row;
  }
  EXPECT_EQ(set.size(), static_cast<int64_t>(first.size()));
  EXPECT_GE(set.memory_bytes(), static_cast<int64_t>(first.size()) * 16 * 4 / 3);
}

TEST(IntKeySetTest, ReserveKeepsEverythingAndSetsOnReusedMemoryStartEmpty) {
  for (int round = 0; round < 3; ++round) {
    IntKeySet set;
    for (uint64_t k = 0; k < 100; ++k) ASSERT_EQ(set.InsertOrFind(k * 977, static_cast<int64_t>(k)), -1);
    set.Reserve(40000);  // a 65536-slot table (1 MiB) from the BlockCache, dirty after round 0
    for (uint64_t k = 0; k < 100; ++k) ASSERT_EQ(set.InsertOrFind(k * 977, 1000), static_cast<int64_t>(k));
    for (uint64_t k = 100; k < 40000; ++k) ASSERT_EQ(set.InsertOrFind(k * 977, 0), -1) << round;
  }
}

}  // namespace
}  // namespace griffin
