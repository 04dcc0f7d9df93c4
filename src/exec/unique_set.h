// An exact set of byte keys that remembers the row where each key was first
// seen: the state behind `unique` (column and row tuple) and `distinct_count`.
//
// Cost per distinct key: the key bytes (in an append-only arena) plus one
// 24-byte slot, at a load factor of at most 1/2: about 48 + key bytes. For
// example 10 million distinct 12-byte ids take about 600 MB.
//
// Not thread-safe: the merger uses it from one thread, in row order, which is
// what makes "first occurrence" independent of threads and batch sizes.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace griffin {

class UniqueSet {
 public:
  UniqueSet();

  // Inserts `key` (with its precomputed hash) first seen at `row`. Returns -1
  // when the key is new, else the row where it was first seen.
  int64_t InsertOrFind(uint64_t hash, std::string_view key, int64_t row);

  int64_t size() const { return size_; }
  // Approximate bytes held (slots + arena).
  int64_t memory_bytes() const;

 private:
  struct Slot {
    uint64_t hash;
    uint32_t block;      // arena block of the key; UINT32_MAX = empty slot
    uint32_t length;
    uint64_t offset_and_row;  // key offset in block (low 24 bits) | first row (high 40 bits)
  };
  static_assert(sizeof(Slot) == 24, "slot layout");
  std::string_view KeyOf(const Slot& slot) const;
  void Grow();
  Slot MakeSlot(uint64_t hash, std::string_view key, int64_t row);

  std::vector<Slot> slots_;
  uint64_t mask_ = 0;
  int64_t size_ = 0;
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::vector<std::string> large_keys_;  // keys over a block's size
  size_t block_used_ = 0;
};

}  // namespace griffin
