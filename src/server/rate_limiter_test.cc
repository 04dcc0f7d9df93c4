#include "server/rate_limiter.h"

#include <gtest/gtest.h>

namespace griffin::server {
namespace {

using Clock = RateLimiter::Clock;

TEST(RateLimiterTest, BurstThenRefillAtTheRate) {
  RateLimiter limiter;
  const RateLimit limit{10, 3};  // 3 at once, one per 100 ms after
  const Clock::time_point t0 = Clock::now();
  for (int i = 0; i < 3; ++i) EXPECT_EQ(limiter.Acquire("k", limit, t0), 0.0) << i;
  const double wait = limiter.Acquire("k", limit, t0);
  EXPECT_NEAR(wait, 0.1, 1e-9);
  EXPECT_GT(limiter.Acquire("k", limit, t0 + std::chrono::milliseconds(50)), 0.0);
  EXPECT_EQ(limiter.Acquire("k", limit, t0 + std::chrono::milliseconds(100)), 0.0);
  // A long pause refills to the burst, never beyond it.
  const Clock::time_point later = t0 + std::chrono::seconds(60);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(limiter.Acquire("k", limit, later), 0.0) << i;
  EXPECT_GT(limiter.Acquire("k", limit, later), 0.0);
}

TEST(RateLimiterTest, KeysHaveTheirOwnBucketsAndZeroIsUnlimited) {
  RateLimiter limiter;
  const Clock::time_point t0 = Clock::now();
  EXPECT_EQ(limiter.Acquire("a", {1, 1}, t0), 0.0);
  EXPECT_GT(limiter.Acquire("a", {1, 1}, t0), 0.0);
  EXPECT_EQ(limiter.Acquire("b", {1, 1}, t0), 0.0);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(limiter.Acquire("c", {0, 0}, t0), 0.0);
  // A clock read out of order on another thread does not refill.
  EXPECT_GT(limiter.Acquire("a", {1, 1}, t0 - std::chrono::seconds(5)), 0.0);
}

}  // namespace
}  // namespace griffin::server
