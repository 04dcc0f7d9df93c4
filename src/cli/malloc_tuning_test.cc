#include "cli/malloc_tuning.h"

#include <malloc.h>

#include <cstdlib>
#include <cstring>

#include <gtest/gtest.h>

namespace griffin {
namespace {

TEST(MallocTuningTest, TheUsersOwnMallocSettingsWin) {
  EXPECT_TRUE(MallocThresholdsAreOurs(nullptr, nullptr, nullptr));
  EXPECT_TRUE(MallocThresholdsAreOurs("glibc.pthread.rseq=0", nullptr, nullptr));
  EXPECT_FALSE(MallocThresholdsAreOurs("glibc.malloc.mmap_threshold=65536", nullptr, nullptr));
  EXPECT_FALSE(MallocThresholdsAreOurs("glibc.pthread.rseq=0:glibc.malloc.arena_max=2", nullptr, nullptr));
  EXPECT_FALSE(MallocThresholdsAreOurs(nullptr, "65536", nullptr));
  EXPECT_FALSE(MallocThresholdsAreOurs(nullptr, nullptr, "1048576"));
}

#if defined(__SANITIZE_ADDRESS__)
#define GRIFFIN_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GRIFFIN_ASAN 1
#endif
#endif

// Once tuned, a 4 MiB block (a chunk) comes from the heap and a 64 MiB one (a
// large table) from mmap, which gives it back to the kernel when freed:
// mallinfo2().hblkhd counts the bytes in mmap'd blocks.
TEST(MallocTuningTest, ChunksComeFromTheHeapAndLargeTablesFromMmap) {
  if (!MallocThresholdsAreOurs(std::getenv("GLIBC_TUNABLES"), std::getenv("MALLOC_MMAP_THRESHOLD_"),
                               std::getenv("MALLOC_TRIM_THRESHOLD_")))
    GTEST_SKIP() << "the environment sets glibc's malloc thresholds";
#if defined(GRIFFIN_ASAN)
  GTEST_SKIP() << "ASan replaces malloc";
#else
  ASSERT_TRUE(TuneMallocForBatches());
  const size_t mmapped_before = mallinfo2().hblkhd;
  void* block = std::malloc(4 << 20);
  ASSERT_NE(block, nullptr);
  std::memset(block, 1, 4 << 20);
  EXPECT_EQ(mallinfo2().hblkhd, mmapped_before);
  std::free(block);
  void* table = std::malloc(64 << 20);
  ASSERT_NE(table, nullptr);
  EXPECT_GE(mallinfo2().hblkhd, mmapped_before + (64 << 20));
  std::free(table);
  EXPECT_EQ(mallinfo2().hblkhd, mmapped_before);
#endif
}

}  // namespace
}  // namespace griffin
