#include "exec/unique_set.h"

#include "exec/open_addressing.h"

#include <string>

#include <gtest/gtest.h>
#include <xxhash.h>

namespace griffin {
namespace {

int64_t Insert(UniqueSet& set, const std::string& key, int64_t row) {
  return set.InsertOrFind(XXH3_64bits(key.data(), key.size()), key, row);
}

TEST(UniqueSetTest, FirstOccurrenceIsRemembered) {
  UniqueSet set;
  EXPECT_EQ(Insert(set, "a", 0), -1);
  EXPECT_EQ(Insert(set, "b", 1), -1);
  EXPECT_EQ(Insert(set, "a", 2), 0);
  EXPECT_EQ(Insert(set, "a", 3), 0);
  EXPECT_EQ(Insert(set, "b", 4), 1);
  EXPECT_EQ(set.size(), 2);
}

TEST(UniqueSetTest, EmptyKeyAndBinaryKeysAreExact) {
  UniqueSet set;
  EXPECT_EQ(Insert(set, "", 5), -1);
  EXPECT_EQ(Insert(set, std::string("a\0b", 3), 6), -1);
  EXPECT_EQ(Insert(set, std::string("a\0c", 3), 7), -1);
  EXPECT_EQ(Insert(set, "", 8), 5);
  EXPECT_EQ(Insert(set, std::string("a\0b", 3), 9), 6);
}

TEST(UniqueSetTest, CollidingHashesStillCompareKeys) {
  UniqueSet set;
  EXPECT_EQ(set.InsertOrFind(42, "x", 0), -1);
  EXPECT_EQ(set.InsertOrFind(42, "y", 1), -1);  // same hash, different key
  EXPECT_EQ(set.InsertOrFind(42, "y", 2), 1);
  EXPECT_EQ(set.InsertOrFind(42, "x", 3), 0);
}

TEST(UniqueSetTest, GrowsThroughManyKeysAndLargeRows) {
  UniqueSet set;
  for (int64_t i = 0; i < 200000; ++i) ASSERT_EQ(Insert(set, std::to_string(i), i + (int64_t{1} << 33)), -1);
  for (int64_t i = 0; i < 200000; i += 997) ASSERT_EQ(Insert(set, std::to_string(i), 0), i + (int64_t{1} << 33));
  EXPECT_EQ(set.size(), 200000);
  EXPECT_GT(set.memory_bytes(), 200000 * 24);
}

// Tables and arena blocks come back from the BlockCache dirty: a new set on
// reused memory must still start empty.
TEST(UniqueSetTest, ASetOnReusedMemoryStartsEmpty) {
  for (int round = 0; round < 3; ++round) {
    UniqueSet set;
    set.Reserve(20000);  // a 32768-slot (512 KiB) table from the cache
    for (int64_t i = 0; i < 20000; ++i) ASSERT_EQ(Insert(set, "k" + std::to_string(i), i), -1) << round;
    for (int64_t i = 0; i < 20000; i += 101) ASSERT_EQ(Insert(set, "k" + std::to_string(i), 0), i);
    EXPECT_EQ(set.size(), 20000);
  }
}

TEST(UniqueSetTest, KeysLargerThanABlock) {
  UniqueSet set;
  std::string big(3 << 20, 'z');
  EXPECT_EQ(Insert(set, big, 1), -1);
  EXPECT_EQ(Insert(set, big, 2), 1);
  big.back() = 'y';
  EXPECT_EQ(Insert(set, big, 3), -1);
}

// What the table reaches at its peak while more keys go in: nothing while
// they fit under load 3/4, else the last doubling's table and the one before.
TEST(UniqueSetTest, GrowthPeakBytesIsTheNextDoublingsTables) {
  EXPECT_EQ(GrowthPeakBytes(1024, 0, 768, 16), 0);
  EXPECT_EQ(GrowthPeakBytes(1024, 0, 769, 16), (2048 + 1024 - 1024) * 16);
  EXPECT_EQ(GrowthPeakBytes(1024, 700, 1000, 16), (4096 + 2048 - 1024) * 16);
  UniqueSet set;  // 1024 slots: 5000 keys end in 8192 slots, moved from 4096
  EXPECT_EQ(set.growth_peak_bytes(5000), (8192 + 4096 - 1024) * 16);
  for (int i = 0; i < 5000; ++i) Insert(set, std::to_string(i), i);
  EXPECT_EQ(set.growth_peak_bytes(0), 0);
  EXPECT_EQ(set.growth_peak_bytes(6144 - 5000), 0);
  EXPECT_EQ(set.growth_peak_bytes(6144 - 5000 + 1), (16384 + 8192 - 8192) * 16);
}

}  // namespace
}  // namespace griffin
