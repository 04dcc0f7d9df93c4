#include "exec/int_key_set.h"

#include <algorithm>
#include <limits>
#include <random>
#include <unordered_map>
#include <vector>

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

// Inserts `keys` in order into a set hinted with the first `hinted` keys'
// range, checking every answer against a map; returns the set's final mode.
bool AgreesWithMap(const std::vector<uint64_t>& keys, size_t hinted) {
  IntKeySet set;
  if (hinted > 0) {
    const auto [low, high] = std::minmax_element(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(hinted));
    set.HintRange(*low, *high, static_cast<int64_t>(hinted));
  }
  std::unordered_map<uint64_t, int64_t> first;
  for (size_t row = 0; row < keys.size(); ++row) {
    auto [it, inserted] = first.emplace(keys[row], static_cast<int64_t>(row));
    EXPECT_EQ(set.InsertOrFind(keys[row], static_cast<int64_t>(row)), inserted ? -1 : it->second) << row;
  }
  EXPECT_EQ(set.size(), static_cast<int64_t>(first.size()));
  std::unordered_map<uint64_t, int64_t> listed;
  set.ForEach([&](uint64_t key, int64_t row) { EXPECT_TRUE(listed.emplace(key, row).second); });
  EXPECT_EQ(listed, first);
  return set.dense();
}

TEST(IntKeySetTest, NarrowRangesGoDenseAndGrowBothWays) {
  std::vector<uint64_t> ids;
  for (uint64_t id = 50000; id < 150000; ++id) ids.push_back(id);   // upward, batch after batch
  for (uint64_t id = 49999; id >= 20000; --id) ids.push_back(id);   // then downward
  for (uint64_t id = 60000; id < 70000; ++id) ids.push_back(id);    // repeats
  EXPECT_TRUE(AgreesWithMap(ids, 10000));
  // Negative int64 keys are large unsigned ones: -5000..5000 is not narrow, still exact.
  std::vector<uint64_t> around_zero;
  for (int64_t id = -5000; id < 5000; ++id) around_zero.push_back(static_cast<uint64_t>(id));
  EXPECT_FALSE(AgreesWithMap(around_zero, around_zero.size()));
  // Keys at the top of the range (-1, -2, ...): the array stays below 2^64.
  std::vector<uint64_t> top;
  for (uint64_t k = 0; k < 30000; ++k) top.push_back(UINT64_MAX - k);
  EXPECT_TRUE(AgreesWithMap(top, 100));
  std::vector<uint64_t> bottom;
  for (uint64_t k = 0; k < 30000; ++k) bottom.push_back(30000 - k);  // down to 1, and 0 below
  bottom.push_back(0);
  bottom.push_back(0);
  EXPECT_TRUE(AgreesWithMap(bottom, 10000));
  EXPECT_FALSE(AgreesWithMap(bottom, 100));  // 101 keys cannot pay for 16384 entries: the hash table takes over
}

TEST(IntKeySetTest, SparseKeysLeaveDenseModeForTheHashTable) {
  std::vector<uint64_t> keys;
  for (uint64_t id = 1; id <= 5000; ++id) keys.push_back(id);
  std::mt19937_64 rng(9);
  for (int i = 0; i < 20000; ++i) keys.push_back(i % 2 ? rng() : keys[rng() % keys.size()]);  // random ids, repeats
  EXPECT_FALSE(AgreesWithMap(keys, 5000));
  // Wide from the start: never dense.
  EXPECT_FALSE(AgreesWithMap({1, 1u << 30, 7, 1}, 4));
  // A hint on a non-empty set is ignored.
  IntKeySet set;
  set.InsertOrFind(3, 0);
  set.HintRange(0, 10, 10);
  EXPECT_FALSE(set.dense());
  EXPECT_EQ(set.InsertOrFind(3, 5), 0);
}

TEST(IntKeySetTest, DenseMemoryStaysWithinTheHashTables) {
  IntKeySet set;
  set.HintRange(0, 99999, 100000);
  ASSERT_TRUE(set.dense());
  for (uint64_t k = 0; k < 100000; ++k) set.InsertOrFind(k, static_cast<int64_t>(k));
  EXPECT_LE(set.memory_bytes(), 100000 * 16);
}

}  // namespace
}  // namespace griffin
