#include "exec/int_key_set.h"

#include "exec/block_cache.h"
#include "exec/open_addressing.h"

namespace griffin {
namespace {
constexpr uint64_t kMinCapacity = 1024;
}  // namespace

IntKeySet::IntKeySet() { Rehash(kMinCapacity); }

IntKeySet::~IntKeySet() { BlockCache::FreeTable(slots_, capacity_ * sizeof(Slot)); }

void IntKeySet::Reserve(int64_t expected_keys) {
  const uint64_t want = CapacityFor(expected_keys, kMinCapacity);
  if (want > capacity_) Rehash(want);
}

void IntKeySet::Rehash(uint64_t new_capacity) {
  Slot* old = slots_;
  const uint64_t old_capacity = capacity_;
  slots_ = static_cast<Slot*>(BlockCache::AllocateTable(new_capacity * sizeof(Slot)));
  capacity_ = new_capacity;
  mask_ = new_capacity - 1;
  MoveSlots(old, old_capacity, slots_, mask_, [](const Slot& slot) { return slot.row_plus_one != 0; },
            [](const Slot& slot) { return Mix64(slot.key); });
  if (old != nullptr) BlockCache::FreeTable(old, old_capacity * sizeof(Slot));
}

}  // namespace griffin
