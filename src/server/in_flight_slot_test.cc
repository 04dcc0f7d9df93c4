#include "server/in_flight_slot.h"

#include <gtest/gtest.h>

#include <optional>

namespace griffin::server {
namespace {

TEST(InFlightSlotTest, CountsWhileAlive) {
  std::atomic<int64_t> counter{0};
  {
    InFlightSlot first(counter);
    EXPECT_EQ(first.count(), 1);
    std::optional<InFlightSlot> second(std::in_place, counter);
    EXPECT_EQ(second->count(), 2);
    second.reset();
    EXPECT_EQ(counter.load(), 1);
    InFlightSlot third(counter);
    EXPECT_EQ(third.count(), 2);
  }
  EXPECT_EQ(counter.load(), 0);
}

}  // namespace
}  // namespace griffin::server
