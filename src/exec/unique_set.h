// An exact set of byte keys that remembers the row where each key was first
// seen: the state behind `unique` (column and row tuple) and `distinct_count`.
//
// Layout: an open-addressing table of 16-byte slots {hash, ref} (linear
// probing, load factor at most 3/4), and an append-only arena holding, per
// key, its first row (8 bytes) and its bytes. Cost per distinct key: 8 + key
// bytes in the arena plus 21-43 bytes of table. Example: 10 million distinct
// 12-character ids take about 200 MB of arena and 268 MB of table.
// A large table is allocated zeroed (calloc), so a generous Reserve() costs
// address space, not memory, until slots are used; tables up to 16 MiB and
// the arena blocks come from the BlockCache, so repeated small runs reuse
// memory that is already mapped.
//
// Not thread-safe: the merger uses it from one thread, in row order, which is
// what makes "first occurrence" independent of threads and batch sizes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace griffin {

class UniqueSet {
 public:
  UniqueSet();
  ~UniqueSet();
  UniqueSet(const UniqueSet&) = delete;
  UniqueSet& operator=(const UniqueSet&) = delete;

  // Makes room for about `expected_keys` keys without rehashing.
  void Reserve(int64_t expected_keys);

  // Inserts `key` (with its precomputed hash) first seen at `row`. Returns -1
  // when the key is new, else the row where it was first seen.
  int64_t InsertOrFind(uint64_t hash, std::string_view key, int64_t row);

  // Hints that `hash` will be looked up soon (prefetches its slot).
  void Prefetch(uint64_t hash) const { __builtin_prefetch(&slots_[hash & mask_]); }

  // Calls fn(hash, key, first_row) for every key, in table order (partial
  // states, src/exec/partial_state.h, serialize and merge sets this way).
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    for (uint64_t pos = 0; pos < capacity_; ++pos)
      if (slots_[pos].ref != 0) fn(slots_[pos].hash, KeyOf(slots_[pos].ref), FirstRowOf(slots_[pos].ref));
  }

  int64_t size() const { return size_; }
  // Approximate bytes held (table + arena).
  int64_t memory_bytes() const;
  // The bytes beyond memory_bytes() that the table's growth reaches at its
  // peak while `more_keys` new keys go in (GrowthPeakBytes; the arena's
  // growth not included).
  int64_t growth_peak_bytes(int64_t more_keys) const;

 private:
  struct Slot {
    uint64_t hash;
    uint64_t ref;  // 0: empty; else arena offset (40 bits) << 24 | key length (24 bits)
  };
  static_assert(sizeof(Slot) == 16, "slot layout");
  struct Block {
    char* data;
    uint64_t bytes;
  };

  std::string_view KeyOf(uint64_t ref) const;
  int64_t FirstRowOf(uint64_t ref) const;
  uint64_t Append(std::string_view key, int64_t row);
  void Rehash(uint64_t new_capacity);

  Slot* slots_ = nullptr;                        // capacity_ slots (see AllocateTable)
  uint64_t capacity_ = 0, mask_ = 0;
  int64_t size_ = 0;
  std::vector<Block> blocks_;                    // arena blocks, 64 KiB doubling up to 4 MiB
  uint64_t block_bytes_ = 0;                     // the last block's size
  size_t block_used_ = 0;                        // bytes used of the last block
  int64_t arena_bytes_ = 0;                      // all blocks' sizes
  std::vector<std::string> large_keys_;          // keys of kLargeKey bytes or more
};

}  // namespace griffin
