#include "exec/int_key_set.h"

#include "exec/block_cache.h"

namespace griffin {
namespace {
constexpr uint64_t kMinCapacity = 1024;
}  // namespace

IntKeySet::IntKeySet() { Rehash(kMinCapacity); }

IntKeySet::~IntKeySet() { BlockCache::FreeTable(slots_, capacity_ * sizeof(Slot)); }

void IntKeySet::Reserve(int64_t expected_keys) {
  uint64_t want = kMinCapacity;
  while (want * 3 / 4 < static_cast<uint64_t>(expected_keys)) want <<= 1;
  if (want > capacity_) Rehash(want);
}

void IntKeySet::Rehash(uint64_t new_capacity) {
  Slot* old = slots_;
  const uint64_t old_capacity = capacity_;
  slots_ = static_cast<Slot*>(BlockCache::AllocateTable(new_capacity * sizeof(Slot)));
  capacity_ = new_capacity;
  mask_ = new_capacity - 1;
  for (uint64_t i = 0; i < old_capacity; ++i) {
    const Slot& slot = old[i];
    if (slot.row_plus_one == 0) continue;
    uint64_t pos = Hash(slot.key) & mask_;
    while (slots_[pos].row_plus_one != 0) pos = (pos + 1) & mask_;
    slots_[pos] = slot;
  }
  if (old != nullptr) BlockCache::FreeTable(old, old_capacity * sizeof(Slot));
}

}  // namespace griffin
