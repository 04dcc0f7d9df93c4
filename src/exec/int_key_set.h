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
  void Prefetch(uint64_t key) const { __builtin_prefetch(&slots_[Mix64(key) & mask_]); }

  // Calls fn(key, first_row) for every key, in table order (partial states).
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    for (uint64_t pos = 0; pos < capacity_; ++pos)
      if (slots_[pos].row_plus_one != 0) fn(slots_[pos].key, static_cast<int64_t>(slots_[pos].row_plus_one - 1));
  }

  int64_t size() const { return size_; }
  int64_t memory_bytes() const { return static_cast<int64_t>(capacity_ * sizeof(Slot)); }

 private:
  struct Slot {
    uint64_t key;
    uint64_t row_plus_one;  // 0: empty
  };
  static_assert(sizeof(Slot) == 16, "slot layout");

  void Rehash(uint64_t new_capacity);

  Slot* slots_ = nullptr;
  uint64_t capacity_ = 0, mask_ = 0;
  int64_t size_ = 0;
};

}  // namespace griffin
