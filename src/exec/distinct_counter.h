// DistinctCounter: the distinct count of a column profile (column_profile.h),
// exact up to kExactLimit distinct values, then a HyperLogLog estimate (2^12
// registers, ~1.6% standard error).
//
// Values arrive as 64-bit hashes (equal values, equal hashes; two distinct
// values share a hash with probability ~n^2 / 2^65, 3e-10 at 100,000 values).
// Workers fill one counter per batch with Add; the merger combines the
// batches' counters in order with Merge.
//
//   DistinctCounter batch;                      // worker, one batch
//   for (...) batch.Add(hash);
//   total.Merge(batch, total.NeedsHashesOf(batch) ? HashesOfThatBatch() : {});
//
// Memory: a batch's counter keeps at most kBatchSetLimit hashes (64 KiB)
// besides its 4 KiB of registers; a batch with more distinct values drops
// them, and while the total is still exact the merger passes that batch's
// hashes again (NeedsHashesOf). The total keeps at most kExactLimit hashes
// (2 MiB), and none once it has passed the limit. Not thread-safe.
//
// As a self-contained mergeable state (column profiles, src/profile/): build
// each part's counter with DistinctCounter(kExactLimit), so that it keeps
// every hash up to the exact limit, and combine with MergeState, which needs
// no second look at the data. The result is exact exactly when the union has
// at most kExactLimit values, whatever the grouping of the merges.
#pragma once

#include <cstdint>
#include <vector>

#include "util/byte_codec.h"

namespace griffin {

class DistinctCounter {
 public:
  static constexpr int64_t kExactLimit = 100000;
  static constexpr int64_t kBatchSetLimit = 4096;
  static constexpr int kRegisterBits = 12;

  DistinctCounter() = default;
  // A counter that keeps up to `batch_limit` hashes before it only estimates.
  explicit DistinctCounter(int64_t batch_limit) : limit_(batch_limit) {}

  // A batch's value.
  void Add(uint64_t hash);
  // Many values (the same as Add of each): the table sized once, probes
  // prefetched.
  void AddAll(const std::vector<uint64_t>& hashes);

  // Whether Merge(other, ...) needs other's hashes: this count is still exact
  // and `other` did not keep all of its own.
  bool NeedsHashesOf(const DistinctCounter& other) const { return exact_ && !other.kept_all_; }

  // Adds the next batch's counter. `other_hashes` holds every hash `other`
  // was given when NeedsHashesOf(other), and is ignored otherwise.
  void Merge(const DistinctCounter& other, const std::vector<uint64_t>& other_hashes);

  // Adds another counter's state: exact while both kept every hash and the
  // union holds at most kExactLimit; a HyperLogLog union otherwise.
  void MergeState(const DistinctCounter& other);

  void Serialize(ByteWriter* out) const;
  bool Deserialize(ByteReader* in);  // false (and `in` failed) when corrupt

  // The distinct count: exact while at most kExactLimit values were seen.
  int64_t Count() const;
  bool exact() const { return exact_; }

 private:
  // Inserts into hashes_ (0 is the empty slot; the hash 0 is has_zero_).
  void Insert(uint64_t hash);
  // Insert of each while the hashes are still all kept: the table grown once
  // for up to `count` more, the probes prefetched a few hashes ahead.
  void InsertMany(const uint64_t* hashes, size_t count);
  void Grow();
  void DropHashes();
  int64_t HyperLogLog() const;

  std::vector<uint8_t> registers_;  // allocated on the first value
  std::vector<uint64_t> table_;     // open addressing, linear probing; power-of-two size
  int64_t size_ = 0;                // distinct hashes in table_ plus has_zero_
  bool has_zero_ = false;
  bool kept_all_ = true;            // table_ holds every hash given (a batch under its limit)
  bool exact_ = true;               // Count() is exact (kept_all_ and at most kExactLimit)
  int64_t limit_ = kBatchSetLimit;  // the most hashes table_ may keep (kExactLimit once merging)
};

}  // namespace griffin
