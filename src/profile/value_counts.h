// ValueCounts: how often each distinct value occurs in one batch, keyed by
// the value's 64-bit hash (open addressing, linear probing; a worker's
// scratch table, never merged or stored). A column profile counts its batch
// here first and then computes each statistic once per distinct value,
// weighted by its count (column_state.cc), so repeated values cost a probe.
//
// entries() lists the distinct hashes in the order of their first add, each
// with the index given then (its first row): a pass over them reads the
// batch's values in row order. Memory: 16 bytes per entry plus 16 per slot,
// at most 4 slots for 3 entries.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace griffin {

class ValueCounts {
 public:
  struct Entry {
    uint64_t hash = 0;
    uint32_t count = 0;
    uint32_t first = 0;  // the index given with the first add
  };

  // Room for `n` distinct values without growing.
  void Reserve(size_t n);

  // Adds `weight` (>= 1) to `hash`'s count; a new hash keeps `first`.
  // True when the hash is new.
  bool Add(uint64_t hash, uint32_t first, uint32_t weight = 1) {
    if ((entries_.size() + 1) * 4 > slots_.size() * 3) Grow(slots_.size() * 2);
    const uint64_t mask = slots_.size() - 1;
    uint64_t pos = hash & mask;  // hashes are already mixed
    while (true) {
      Slot& s = slots_[pos];
      if (s.index == 0) {
        entries_.push_back({hash, weight, first});
        s = {hash, static_cast<uint32_t>(entries_.size())};
        return true;
      }
      if (s.hash == hash) {
        entries_[s.index - 1].count += weight;
        return false;
      }
      pos = (pos + 1) & mask;
    }
  }
  // A hint: the slot `hash` will probe first (call a few adds ahead).
  void Prefetch(uint64_t hash) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[hash & (slots_.size() - 1)]);
  }

  size_t size() const { return entries_.size(); }
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  struct Slot {
    uint64_t hash = 0;
    uint32_t index = 0;  // 1 + the entry's position; 0: empty
  };
  void Grow(size_t slots);

  std::vector<Slot> slots_;
  std::vector<Entry> entries_;
};

}  // namespace griffin
