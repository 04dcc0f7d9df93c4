// Keyed `unique` state across griffin stream's micro-batches.
//
// The engine judges each micro-batch as one run; with this state, a key that a
// committed batch already held makes a record a duplicate too, so `unique`
// spans the stream as it spans a file (exec/prior_unique_keys.h):
//
//   StreamUniqueState state({max_keys, retention_ms});
//   for each record of the state topic: state.Load(key, value);   // at start
//   state.FinishLoading(now_ms);
//   options.prior_unique = &state;  JudgeMessages(...);   // the batch's new keys: pending()
//   ... write pending() and tombstones() to the state topic in the batch's transaction ...
//   state.Commit(now_ms, tombstones_written);   // or state.Abort() when it aborted
//
// Stored form (a compacted Kafka topic): key "CHECK\0KEY" (the check's name and
// the merger's key bytes), value the decimal milliseconds since the epoch when
// the key was first committed; a tombstone (no value) removes the key.
// Bounds: a key older than `retention_ms`, and the oldest keys past
// `max_keys`, are forgotten (a later record with that key is a first
// occurrence again) and tombstoned in the next transaction.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "exec/prior_unique_keys.h"

namespace griffin::kafka {

class StreamUniqueState : public PriorUniqueKeys {
 public:
  struct Limits {
    int64_t max_keys = 10'000'000;
    int64_t retention_ms = 7LL * 24 * 3600 * 1000;
  };
  explicit StreamUniqueState(Limits limits) : limits_(limits) {}

  // PriorUniqueKeys: Seen looks at committed keys only; Add collects the open batch's.
  bool Seen(std::string_view check, std::string_view key) const override;
  void Add(std::string_view check, std::string_view key) override;

  static std::string StoredKey(std::string_view check, std::string_view key);

  // One record of the state topic, in topic order: a value sets the key's
  // first-seen time, none (a tombstone) removes it. A value that is not a
  // decimal number is skipped (returns false).
  bool Load(std::string_view stored_key, std::optional<std::string_view> value);
  // After the last Load: applies the limits at `now_ms`.
  void FinishLoading(int64_t now_ms);

  // The open batch's new keys (stored form), in the order first met.
  const std::vector<std::string>& pending() const { return pending_; }
  // Forgotten keys not yet tombstoned in a committed transaction (stored form).
  const std::vector<std::string>& tombstones() const { return tombstones_; }

  // The open batch committed with pending() and the first `tombstones_written`
  // tombstones: its keys join (first seen at now_ms), the limits apply.
  void Commit(int64_t now_ms, size_t tombstones_written);
  // The open batch aborted: its keys are dropped (it is read again).
  void Abort() { pending_.clear(); }

  int64_t size() const { return static_cast<int64_t>(seen_ms_.size()); }

 private:
  void Evict(int64_t now_ms);

  Limits limits_;
  std::unordered_map<std::string, int64_t> seen_ms_;  // stored key -> first committed (ms)
  // Every key once, oldest first (pointers to seen_ms_'s keys, stable across
  // rehashing; built by FinishLoading, only Evict removes keys after it).
  std::deque<std::pair<int64_t, const std::string*>> order_;
  std::vector<std::string> pending_, tombstones_;
  mutable std::string probe_;  // Seen's key buffer
};

}  // namespace griffin::kafka
