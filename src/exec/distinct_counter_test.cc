#include "exec/distinct_counter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "exec/open_addressing.h"

namespace griffin {
namespace {

// Counters for `batches` batches of `per_batch` values each, value v hashed
// by Mix64(v), values running on across batches; merged in order.
int64_t MergedCount(int64_t batches, int64_t per_batch, int64_t modulo, bool* exact = nullptr) {
  DistinctCounter total;
  int64_t value = 0;
  for (int64_t b = 0; b < batches; ++b) {
    DistinctCounter batch;
    std::vector<uint64_t> hashes;
    for (int64_t i = 0; i < per_batch; ++i, ++value) {
      const uint64_t hash = Mix64(static_cast<uint64_t>(value % modulo));
      batch.Add(hash);
      hashes.push_back(hash);
    }
    total.Merge(batch, total.NeedsHashesOf(batch) ? hashes : std::vector<uint64_t>{});
  }
  if (exact) *exact = total.exact();
  return total.Count();
}

TEST(DistinctCounterTest, ExactWhileBatchesKeepTheirHashes) {
  bool exact = false;
  EXPECT_EQ(MergedCount(10, 1000, 3376, &exact), 3376);  // the store's wrong case: HLL said more
  EXPECT_TRUE(exact);
  EXPECT_EQ(MergedCount(3, 7, 1000000), 21);
  EXPECT_EQ(MergedCount(0, 0, 1), 0);
}

TEST(DistinctCounterTest, ExactUpToTheLimitWhenBatchesHoldMoreThanTheyKeep) {
  bool exact = false;
  // 65,536-row batches of distinct values: each batch drops its own hashes.
  EXPECT_EQ(MergedCount(3, 65536, 99999, &exact), 99999);
  EXPECT_TRUE(exact);
  EXPECT_EQ(MergedCount(2, 50000, 1000000, &exact), DistinctCounter::kExactLimit);
  EXPECT_TRUE(exact);
}

TEST(DistinctCounterTest, EstimatesBeyondTheLimit) {
  bool exact = true;
  const int64_t count = MergedCount(5, 65536, 1 << 30, &exact);  // 327,680 distinct
  EXPECT_FALSE(exact);
  EXPECT_NEAR(static_cast<double>(count), 327680.0, 327680.0 * 0.05);  // ~1.6% standard error
}

TEST(DistinctCounterTest, TheHashZeroCounts) {
  DistinctCounter batch;
  batch.Add(0);
  batch.Add(0);
  batch.Add(5);
  DistinctCounter total;
  total.Merge(batch, {});
  EXPECT_EQ(total.Count(), 2);
}

}  // namespace
}  // namespace griffin
