#include "util/huge_pages.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <new>
#include <string>

namespace griffin {
namespace {

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
  auto anon_huge_kib = [] {
    std::ifstream rollup("/proc/self/smaps_rollup");
    std::string line;
    while (std::getline(rollup, line))
      if (line.rfind("AnonHugePages:", 0) == 0) return std::stol(line.substr(14));
    return -1L;
  };
  const long before = anon_huge_kib();
  const size_t bytes = 8 * kHugePageBytes;
  auto* block = static_cast<char*>(MapZeroed(bytes));
  for (size_t i = 0; i < bytes; i += 4096) block[i] = 1;
  const long after = anon_huge_kib();
  UnmapZeroed(block, bytes);
  ASSERT_GE(before, 0);
  EXPECT_GE(after - before, static_cast<long>(kHugePageBytes >> 10)) << "no huge page backs the block";
}

}  // namespace
}  // namespace griffin
