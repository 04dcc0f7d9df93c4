#include "util/alloc_failure.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <new>
#include <stdexcept>

#include "exec/block_cache.h"
#include "util/huge_pages.h"

namespace griffin {
namespace {

struct HandlerRan : std::runtime_error {
  HandlerRan() : std::runtime_error("the new-handler ran") {}
};

// Sets a new-handler for the test's scope (the CLI installs one that exits 3).
class WithNewHandler {
 public:
  explicit WithNewHandler(std::new_handler handler) : previous_(std::set_new_handler(handler)) {}
  ~WithNewHandler() { std::set_new_handler(previous_); }

 private:
  std::new_handler previous_;
};

TEST(AllocFailureTest, WithoutAHandlerItIsBadAlloc) {
  WithNewHandler none(nullptr);
  EXPECT_THROW(FailAllocation(), std::bad_alloc);
}

// The engine's own large allocations failing reach the handler, as operator
// new's do: before, they threw std::bad_alloc past it and the CLI aborted
// (exit 134) under RLIMIT_AS on a 10M-row run.
TEST(AllocFailureTest, TheEnginesOwnAllocationsCallTheNewHandler) {
  WithNewHandler throwing([] { throw HandlerRan(); });
  EXPECT_THROW(FailAllocation(), HandlerRan);
  EXPECT_THROW(MapZeroed(size_t{1} << 60), HandlerRan);  // more address space than exists
  EXPECT_THROW(BlockCache::AllocateTable(size_t{1} << 60), HandlerRan);
}

}  // namespace
}  // namespace griffin
