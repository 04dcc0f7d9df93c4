#include "cli/out_of_memory.h"

#include <sys/resource.h>

#include <atomic>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace griffin {
namespace {

// ASan's allocator reserves terabytes of address space and reports a failed
// allocation itself, so these run in the Release and fuzz builds only.
#if !defined(__SANITIZE_ADDRESS__)

// Allocates far past a 1 GiB address-space limit.
void AllocateTooMuch() {
  rlimit limit{1L << 30, 1L << 30};
  setrlimit(RLIMIT_AS, &limit);
  std::vector<std::vector<char>> blocks;
  for (int i = 0; i < 64; ++i) blocks.emplace_back(size_t{64} << 20, 'x');
}

TEST(OutOfMemoryDeathTest, IsOneLineAndExit3) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ExitOnOutOfMemory();
        AllocateTooMuch();
      },
      testing::ExitedWithCode(3), "^griffin: out of memory\n$");
}

TEST(OutOfMemoryDeathTest, OnAWorkerThreadToo) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ExitOnOutOfMemory();
        std::thread worker(AllocateTooMuch);
        worker.join();
      },
      testing::ExitedWithCode(3), "^griffin: out of memory\n$");
}

// Eight threads, released together, each ask for 2 GiB under a 1 GiB
// address-space limit: their allocations fail at the same moment.
void ManyThreadsAllocateTooMuch() {
  rlimit limit{1L << 30, 1L << 30};
  setrlimit(RLIMIT_AS, &limit);
  std::atomic<bool> go{false};
  std::vector<std::thread> workers;
  for (int i = 0; i < 8; ++i)
    workers.emplace_back([&go] {
      while (!go.load()) {
      }
      std::vector<char> block(size_t{2} << 30);
      block[0] = 'x';
    });
  go.store(true);
  for (std::thread& worker : workers) worker.join();
}

// Threads that run out together still print one line (the first exits, the
// others wait), as the CLI's worker pool under RLIMIT_AS can.
TEST(OutOfMemoryDeathTest, ManyThreadsAtOnceStillOneLine) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ExitOnOutOfMemory();
        ManyThreadsAllocateTooMuch();
      },
      testing::ExitedWithCode(3), "^griffin: out of memory\n$");
}

#endif  // !__SANITIZE_ADDRESS__

}  // namespace
}  // namespace griffin
