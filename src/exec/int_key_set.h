// An exact set of 64-bit keys that remembers the row where each key was
// first seen: `unique` on a numeric column (int64, bool, date, timestamp, and
// float64 by its normalized bits; NumericKey in column_kernels.h).
//
// Layout: an open-addressing table of 16-byte slots {key, first row + 1}
// (0: empty), linear probing from Mix64(key), load factor at most 3/4;
// nothing else. Cost per distinct key: 21-43 bytes (10 million distinct ids:
// 268 MB). Tables up to 16 MiB come from the BlockCache, larger
// ones are calloc'd (lazily mapped), as UniqueSet's.
//
// Dense mode (after HintRange on an empty set): keys of a narrow range (ids
// 1..n) live in a direct-indexed array of first row + 1, one 8-byte entry per
// key of the range (a power of two), at most 4 entries per key held (plus 8192): no hashing,
// no probing. A key outside the range grows the array while the range stays
// that narrow, else every key moves to the hash table. Same answers either way.
//
// Not thread-safe: the merger uses it from one thread, in row order.
#pragma once

#include <cstdint>

#include "exec/open_addressing.h"

namespace griffin {

class IntKeySet {
 public:
  IntKeySet();
  ~IntKeySet();
  IntKeySet(const IntKeySet&) = delete;
  IntKeySet& operator=(const IntKeySet&) = delete;

  // Makes room for about `expected_keys` keys without rehashing.
  void Reserve(int64_t expected_keys);

  // Inserts `key` first seen at `row` (>= 0). Returns -1 when the key is new,
  // else the row where it was first seen.
  int64_t InsertOrFind(uint64_t key, int64_t row) {
    if (dense_ != nullptr) {
      const uint64_t index = key - dense_base_;
      if (index >= dense_capacity_) return InsertOutsideDense(key, row);
      if (dense_[index] != 0) return static_cast<int64_t>(dense_[index] - 1);
      dense_[index] = static_cast<uint64_t>(row) + 1;
      ++size_;
      return -1;
    }
    uint64_t pos = Mix64(key) & mask_;
    while (slots_[pos].row_plus_one != 0) {
      if (slots_[pos].key == key) return static_cast<int64_t>(slots_[pos].row_plus_one - 1);
      pos = (pos + 1) & mask_;
    }
    slots_[pos] = Slot{key, static_cast<uint64_t>(row) + 1};
    if (static_cast<uint64_t>(++size_) * 4 > capacity_ * 3) Rehash(capacity_ * 2);
    return -1;
  }

  // Hints that `key` will be looked up soon (prefetches its slot).
  void Prefetch(uint64_t key) const {
    if (dense_ == nullptr) __builtin_prefetch(&slots_[Mix64(key) & mask_]);
  }

  // The next `keys` keys lie in [min_key, max_key] (unsigned order): an
  // empty set whose range is narrow enough turns dense (see above).
  void HintRange(uint64_t min_key, uint64_t max_key, int64_t keys);
  bool dense() const { return dense_ != nullptr; }

  // Calls fn(key, first_row) for every key, in table order (partial states).
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    for (uint64_t i = 0; dense_ != nullptr && i < dense_capacity_; ++i)
      if (dense_[i] != 0) fn(dense_base_ + i, static_cast<int64_t>(dense_[i] - 1));
    for (uint64_t pos = 0; pos < capacity_; ++pos)
      if (slots_[pos].row_plus_one != 0) fn(slots_[pos].key, static_cast<int64_t>(slots_[pos].row_plus_one - 1));
  }

  int64_t size() const { return size_; }
  int64_t memory_bytes() const {
    return static_cast<int64_t>(capacity_ * sizeof(Slot) + dense_capacity_ * sizeof(uint64_t));
  }
  // The bytes beyond memory_bytes() that the hash table's growth reaches at
  // its peak while `more_keys` new keys go in (GrowthPeakBytes); 0 in dense
  // mode, whose array grows with the keys' range, not their number.
  int64_t growth_peak_bytes(int64_t more_keys) const {
    return dense_ != nullptr ? 0 : GrowthPeakBytes(capacity_, size_, more_keys, sizeof(Slot));
  }

 private:
  struct Slot {
    uint64_t key;
    uint64_t row_plus_one;  // 0: empty
  };
  static_assert(sizeof(Slot) == 16, "slot layout");

  void Rehash(uint64_t new_capacity);
  // Whether a dense array of `span` entries may hold `keys` keys.
  static bool DenseFits(uint64_t span, int64_t keys);
  // The power-of-two dense array [*base, *base + *capacity) covering keys
  // [low, high] with at least `at_least` entries (growing down from `high`
  // when `downward`), or false when it would not be narrow for `keys` keys.
  static bool DenseRange(uint64_t low, uint64_t high, uint64_t at_least, bool downward, int64_t keys,
                         uint64_t* base, uint64_t* capacity);
  // Dense mode, `key` outside the array: grows it, or moves to the hash table.
  int64_t InsertOutsideDense(uint64_t key, int64_t row);
  void SetDense(uint64_t base, uint64_t capacity);  // a new array; the old entries move into it
  void FreeDense();

  Slot* slots_ = nullptr;       // null in dense mode
  uint64_t capacity_ = 0, mask_ = 0;
  int64_t size_ = 0;
  uint64_t* dense_ = nullptr;   // dense mode: first row + 1 of key dense_base_ + i (0: absent)
  uint64_t dense_base_ = 0, dense_capacity_ = 0;
};

}  // namespace griffin
