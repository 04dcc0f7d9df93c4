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

// Self-contained parts (each keeps its hashes up to the exact limit), merged
// in two different groupings: the same count, exact iff the union fits.
int64_t GroupedCount(int64_t values, int64_t parts, bool left_first, bool* exact) {
  std::vector<DistinctCounter> counters;
  for (int64_t p = 0; p < parts; ++p) {
    counters.emplace_back(DistinctCounter::kExactLimit);
    for (int64_t v = p; v < values; v += parts) counters.back().Add(Mix64(static_cast<uint64_t>(v)));
  }
  DistinctCounter total(DistinctCounter::kExactLimit);
  if (left_first) {
    for (const DistinctCounter& c : counters) total.MergeState(c);
  } else {
    DistinctCounter right(DistinctCounter::kExactLimit);
    for (size_t i = 1; i < counters.size(); ++i) right.MergeState(counters[i]);
    total.MergeState(counters[0]);
    total.MergeState(right);
  }
  *exact = total.exact();
  return total.Count();
}

TEST(DistinctCounterTest, MergeStateIsExactUpToTheLimitWhateverTheGrouping) {
  bool exact_a = false, exact_b = false;
  EXPECT_EQ(GroupedCount(90000, 3, true, &exact_a), 90000);
  EXPECT_EQ(GroupedCount(90000, 3, false, &exact_b), 90000);
  EXPECT_TRUE(exact_a && exact_b);
  const int64_t a = GroupedCount(150000, 3, true, &exact_a);
  const int64_t b = GroupedCount(150000, 3, false, &exact_b);
  EXPECT_FALSE(exact_a || exact_b);
  EXPECT_EQ(a, b);  // HyperLogLog registers merge by max: grouping-free
  EXPECT_NEAR(a, 150000, 150000 * 0.05);
}

TEST(DistinctCounterTest, SerializedStateRoundTrips) {
  DistinctCounter counter(DistinctCounter::kExactLimit);
  for (uint64_t v = 1; v <= 1000; ++v) counter.Add(Mix64(v));
  counter.Add(0);  // Mix64(0) is 0: the one hash the table cannot hold
  ByteWriter out;
  counter.Serialize(&out);
  DistinctCounter back;
  ByteReader in(out.bytes());
  ASSERT_TRUE(back.Deserialize(&in));
  EXPECT_EQ(back.Count(), 1001);
  EXPECT_TRUE(back.exact());
  ByteWriter again;
  back.Serialize(&again);
  EXPECT_EQ(again.bytes(), out.bytes());
  ByteWriter bad;
  bad.U8(3);
  bad.I64(-5);  // a limit no counter has
  ByteReader corrupt(bad.bytes());
  EXPECT_FALSE(DistinctCounter().Deserialize(&corrupt));
}

TEST(DistinctCounterTest, AddAllEqualsAddOfEach) {
  for (int n : {0, 10, 5000, 150000}) {
    std::vector<uint64_t> hashes;
    for (int i = 0; i < n; ++i) hashes.push_back((i % (n / 2 + 1)) * 0x9E3779B97F4A7C15ULL);
    DistinctCounter one(DistinctCounter::kExactLimit), all(DistinctCounter::kExactLimit);
    for (uint64_t h : hashes) one.Add(h);
    all.AddAll(hashes);
    EXPECT_EQ(all.Count(), one.Count()) << n;
    EXPECT_EQ(all.exact(), one.exact()) << n;
    ByteWriter a, b;
    one.Serialize(&a);
    all.Serialize(&b);
    EXPECT_EQ(a.bytes(), b.bytes()) << n;
  }
}

}  // namespace
}  // namespace griffin
