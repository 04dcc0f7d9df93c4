#include "connectors/kafka/stream_unique_state.h"

#include <gtest/gtest.h>

namespace griffin::kafka {
namespace {

TEST(StreamUniqueState, CommittedKeysAreSeenPendingOnesOnlyAfterCommit) {
  StreamUniqueState state({});
  state.FinishLoading(1000);
  EXPECT_FALSE(state.Seen("id.unique", "e1"));
  state.Add("id.unique", "e1");
  EXPECT_FALSE(state.Seen("id.unique", "e1"));  // the engine finds repeats inside a batch itself
  EXPECT_EQ(state.pending(), std::vector<std::string>{std::string("id.unique\0e1", 12)});
  state.Commit(1000, 0);
  EXPECT_TRUE(state.Seen("id.unique", "e1"));
  EXPECT_FALSE(state.Seen("other.unique", "e1"));  // keys are per check
  EXPECT_TRUE(state.pending().empty());
}

TEST(StreamUniqueState, AnAbortedBatchLeavesNoKeys) {
  StreamUniqueState state({});
  state.FinishLoading(0);
  state.Add("id.unique", "e1");
  state.Abort();
  state.Commit(0, 0);
  EXPECT_FALSE(state.Seen("id.unique", "e1"));
  EXPECT_EQ(state.size(), 0);
}

TEST(StreamUniqueState, LoadsTheTopicWithTombstonesAndSkipsBadValues) {
  StreamUniqueState state({});
  EXPECT_TRUE(state.Load(StreamUniqueState::StoredKey("id.unique", "a"), "100"));
  EXPECT_TRUE(state.Load(StreamUniqueState::StoredKey("id.unique", "b"), "100"));
  EXPECT_TRUE(state.Load(StreamUniqueState::StoredKey("id.unique", "a"), std::nullopt));
  EXPECT_FALSE(state.Load(StreamUniqueState::StoredKey("id.unique", "c"), "soon"));
  state.FinishLoading(200);
  EXPECT_FALSE(state.Seen("id.unique", "a"));
  EXPECT_TRUE(state.Seen("id.unique", "b"));
  EXPECT_FALSE(state.Seen("id.unique", "c"));
}

TEST(StreamUniqueState, ForgetsKeysPastRetentionAndTheOldestPastMaxKeys) {
  StreamUniqueState state({/*max_keys=*/2, /*retention_ms=*/1000});
  state.Load(StreamUniqueState::StoredKey("u", "old"), "0");
  state.Load(StreamUniqueState::StoredKey("u", "mid"), "900");
  state.FinishLoading(1500);  // "old" is 1500 ms old
  EXPECT_FALSE(state.Seen("u", "old"));
  EXPECT_TRUE(state.Seen("u", "mid"));
  EXPECT_EQ(state.tombstones(), std::vector<std::string>{StreamUniqueState::StoredKey("u", "old")});

  state.Add("u", "x");
  state.Add("u", "y");
  state.Commit(1600, 1);  // the tombstone of "old" was written with this batch
  // Three keys, at most two: the oldest ("mid") goes.
  EXPECT_FALSE(state.Seen("u", "mid"));
  EXPECT_TRUE(state.Seen("u", "x"));
  EXPECT_TRUE(state.Seen("u", "y"));
  EXPECT_EQ(state.tombstones(), std::vector<std::string>{StreamUniqueState::StoredKey("u", "mid")});
  state.Commit(3000, 1);  // both past retention
  EXPECT_EQ(state.size(), 0);
  EXPECT_EQ(state.tombstones().size(), 2u);
}

}  // namespace
}  // namespace griffin::kafka
