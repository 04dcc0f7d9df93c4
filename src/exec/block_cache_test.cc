#include "exec/block_cache.h"

#include <cstring>
#include <vector>

#include <gtest/gtest.h>

namespace griffin {
namespace {

TEST(BlockCacheTest, ServesPowersOfTwoFrom64KiBTo16MiB) {
  EXPECT_FALSE(BlockCache::Serves(32 << 10));
  EXPECT_TRUE(BlockCache::Serves(64 << 10));
  EXPECT_FALSE(BlockCache::Serves((64 << 10) + 16));
  EXPECT_TRUE(BlockCache::Serves(1 << 20));
  EXPECT_TRUE(BlockCache::Serves(16 << 20));
  EXPECT_FALSE(BlockCache::Serves(32 << 20));
}

TEST(BlockCacheTest, AFreedBlockIsHandedOutAgain) {
  const size_t bytes = 256 << 10;
  void* first = BlockCache::Allocate(bytes);
  std::memset(first, 7, bytes);
  const size_t cached = BlockCache::CachedBytes();
  BlockCache::Free(first, bytes);
  EXPECT_EQ(BlockCache::CachedBytes(), cached + bytes);
  void* again = BlockCache::Allocate(bytes);
  EXPECT_EQ(again, first);  // the same, already mapped memory (contents unspecified)
  EXPECT_EQ(BlockCache::CachedBytes(), cached);
  BlockCache::Free(again, bytes);
}

TEST(BlockCacheTest, KeepsAtMostItsCap) {
  const size_t bytes = BlockCache::kMaxBlockBytes;
  std::vector<void*> blocks;
  for (size_t i = 0; i < 3; ++i) blocks.push_back(BlockCache::Allocate(bytes));
  for (void* block : blocks) BlockCache::Free(block, bytes);  // beyond the cap: released
  EXPECT_LE(BlockCache::CachedBytes(), BlockCache::kMaxCachedBytes);
  BlockCache::Free(nullptr, bytes);  // a no-op
}

}  // namespace
}  // namespace griffin
