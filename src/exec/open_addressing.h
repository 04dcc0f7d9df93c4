// Pieces shared by the engine's open-addressing hash sets (UniqueSet,
// IntKeySet; ColumnProfile's hashing of 8-byte values): power-of-two tables,
// linear probing, load factor at most 3/4.
#pragma once

#include <algorithm>
#include <cstdint>

namespace griffin {

// A fast 64-bit mix (splitmix64's finalizer): every input bit reaches the low
// bits a power-of-two table indexes by.
inline uint64_t Mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The smallest power-of-two capacity, at least `min_capacity`, that holds
// `keys` keys at a load factor of at most 3/4.
inline uint64_t CapacityFor(int64_t keys, uint64_t min_capacity) {
  uint64_t capacity = min_capacity;
  while (capacity * 3 / 4 < static_cast<uint64_t>(keys)) capacity <<= 1;
  return capacity;
}

// The bytes beyond its current table that a table of `capacity` slots of
// `slot_bytes` holding `size` keys reaches at its peak while `more` new keys
// go in (it doubles past load 3/4): 0 when they fit, else the last doubling's
// new table plus the old one it moves from, less the table held now.
inline int64_t GrowthPeakBytes(uint64_t capacity, int64_t size, int64_t more, size_t slot_bytes) {
  const uint64_t keys = static_cast<uint64_t>(size + std::max<int64_t>(more, 0));
  if (keys * 4 <= capacity * 3) return 0;
  uint64_t grown = capacity;
  while (keys * 4 > grown * 3) grown <<= 1;
  return static_cast<int64_t>((grown + grown / 2 - capacity) * slot_bytes);
}

// Moves the slots of `old` for which occupied(slot) holds into `table` (zeroed,
// mask + 1 slots), each at the first free slot from hash_of(slot) & mask.
template <typename Slot, typename Occupied, typename HashOf>
void MoveSlots(const Slot* old, uint64_t old_capacity, Slot* table, uint64_t mask, Occupied occupied,
               HashOf hash_of) {
  for (uint64_t i = 0; i < old_capacity; ++i) {
    if (!occupied(old[i])) continue;
    uint64_t pos = hash_of(old[i]) & mask;
    while (occupied(table[pos])) pos = (pos + 1) & mask;
    table[pos] = old[i];
  }
}

}  // namespace griffin
