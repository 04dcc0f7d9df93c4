#include "util/huge_pages.h"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <thread>
#include <cstring>
#include <fstream>
#include <new>
#include <string>

namespace griffin {
namespace {

// A field of /proc/self/smaps_rollup in KiB, -1 when missing.
long RollupKib(const std::string& field) {
  std::ifstream rollup("/proc/self/smaps_rollup");
  std::string line;
  while (std::getline(rollup, line))
    if (line.rfind(field, 0) == 0) return std::stol(line.substr(field.size()));
  return -1L;
}

TEST(HugePagesTest, BlocksAreZeroedAlignedWritableAndIndependent) {
  for (size_t bytes : {size_t{1}, size_t{4096}, kHugePageBytes - 1, kHugePageBytes, 3 * kHugePageBytes + 17}) {
    auto* a = static_cast<unsigned char*>(MapZeroed(bytes));
    auto* b = static_cast<unsigned char*>(MapZeroed(bytes));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % kHugePageBytes, 0u) << bytes;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % kHugePageBytes, 0u) << bytes;
    size_t nonzero = 0;
    for (size_t i = 0; i < bytes; ++i) nonzero += a[i] != 0 || b[i] != 0;
    EXPECT_EQ(nonzero, 0u) << bytes;
    std::memset(a, 0xAB, bytes);
    EXPECT_EQ(b[0], 0) << bytes;
    EXPECT_EQ(b[bytes - 1], 0) << bytes;
    EXPECT_EQ(a[bytes - 1], 0xAB) << bytes;
    UnmapZeroed(a, bytes);
    UnmapZeroed(b, bytes);
  }
  UnmapZeroed(nullptr, 10);  // a no-op
}

TEST(HugePagesTest, ImpossibleSizesAreBadAlloc) {
  EXPECT_THROW(MapZeroed(0), std::bad_alloc);
  EXPECT_THROW(MapZeroed(SIZE_MAX - 1), std::bad_alloc);
  EXPECT_THROW(MapZeroed(size_t{1} << 60), std::bad_alloc);  // more address space than exists
}

// Where the kernel grants huge pages on advice, a touched block is backed by
// them (AnonHugePages in the process's smaps_rollup grows). Skipped only on a
// kernel with THP off, where the tests above still hold.
TEST(HugePagesTest, ATouchedBlockIsBackedByHugePagesWhereTheKernelAdvises) {
  std::ifstream mode_file("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string mode((std::istreambuf_iterator<char>(mode_file)), std::istreambuf_iterator<char>());
  if (mode.find("[never]") != std::string::npos || mode.empty()) GTEST_SKIP() << "THP is off on this kernel";
  auto anon_huge_kib = [] { return RollupKib("AnonHugePages:"); };
  const long before = anon_huge_kib();
  const size_t bytes = 8 * kHugePageBytes;
  auto* block = static_cast<char*>(MapZeroed(bytes));
  for (size_t i = 0; i < bytes; i += 4096) block[i] = 1;
  const long after = anon_huge_kib();
  UnmapZeroed(block, bytes);
  ASSERT_GE(before, 0);
  EXPECT_GE(after - before, static_cast<long>(kHugePageBytes >> 10)) << "no huge page backs the block";
}

// A block of two huge pages or more is faulted in by the background populator
// without the caller touching it: the process's anonymous memory grows by it.
TEST(HugePagesTest, ALargeBlockIsFaultedInInTheBackground) {
  const long before = RollupKib("Anonymous:");
  ASSERT_GE(before, 0);
  const size_t bytes = 32 * kHugePageBytes;
  void* block = MapZeroed(bytes);
  long grown = 0;
  for (int wait = 0; wait < 500 && grown < static_cast<long>(bytes >> 10) / 2; ++wait) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    grown = RollupKib("Anonymous:") - before;
  }
  UnmapZeroed(block, bytes);
  EXPECT_GE(grown, static_cast<long>(bytes >> 10) / 2) << "the untouched block was not populated within 5 s";
}

// A forked child (Python multiprocessing, PySpark's workers) maps, populates
// and writes large blocks with a populator thread of its own, and exits.
TEST(HugePagesTest, AForkedChildMapsAndPopulatesItsOwnBlocks) {
  void* parent_block = MapZeroed(4 * kHugePageBytes);  // the parent's populator is running
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    alarm(20);  // a deadlock ends the child with SIGALRM, which the parent sees
    for (int i = 0; i < 8; ++i) {
      auto* block = static_cast<char*>(MapZeroed(4 * kHugePageBytes));
      block[0] = block[4 * kHugePageBytes - 1] = 1;
      UnmapZeroed(block, 4 * kHugePageBytes);
    }
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  UnmapZeroed(parent_block, 4 * kHugePageBytes);
}

}  // namespace
}  // namespace griffin
