#include "exec/int_key_set.h"

#include <algorithm>
#include <cstdint>

#include "exec/block_cache.h"
#include "exec/open_addressing.h"

namespace griffin {
namespace {
constexpr uint64_t kMinCapacity = 1024;
// A dense array holds at most this many entries per key (plus kDenseSlack):
// 32 bytes per key at worst, within the hash table's 21-43.
constexpr uint64_t kDenseEntriesPerKey = 4;
constexpr uint64_t kMaxDenseEntries = uint64_t{1} << 28;  // 2 GiB
constexpr uint64_t kMinDenseEntries = uint64_t{1} << 13;  // 64 KiB, BlockCache's smallest block
constexpr uint64_t kDenseSlack = kMinDenseEntries;
}  // namespace

IntKeySet::IntKeySet() { Rehash(kMinCapacity); }

IntKeySet::~IntKeySet() {
  if (slots_ != nullptr) BlockCache::FreeTable(slots_, capacity_ * sizeof(Slot));
  FreeDense();
}

bool IntKeySet::DenseFits(uint64_t span, int64_t keys) {
  return span <= kMaxDenseEntries && span <= kDenseEntriesPerKey * static_cast<uint64_t>(keys) + kDenseSlack;
}

bool IntKeySet::DenseRange(uint64_t low, uint64_t high, uint64_t at_least, bool downward, int64_t keys,
                           uint64_t* base, uint64_t* capacity) {
  if (high - low >= kMaxDenseEntries) return false;
  uint64_t entries = kMinDenseEntries;  // a power of two: BlockCache blocks, reused from call to call
  while (entries < high - low + 1 || entries < at_least) entries <<= 1;
  if (!DenseFits(entries, keys)) return false;
  uint64_t first = downward ? (high >= entries - 1 ? high - (entries - 1) : 0) : low;
  if (entries - 1 > UINT64_MAX - first) first = UINT64_MAX - (entries - 1);  // stay below 2^64
  *base = first;
  *capacity = entries;
  return true;
}

void IntKeySet::HintRange(uint64_t min_key, uint64_t max_key, int64_t keys) {
  uint64_t base, capacity;
  if (size_ != 0 || dense_ != nullptr || max_key < min_key ||
      !DenseRange(min_key, max_key, 0, false, keys, &base, &capacity))
    return;
  BlockCache::FreeTable(slots_, capacity_ * sizeof(Slot));
  slots_ = nullptr;
  capacity_ = mask_ = 0;
  SetDense(base, capacity);
}

void IntKeySet::SetDense(uint64_t base, uint64_t capacity) {
  auto* table = static_cast<uint64_t*>(BlockCache::AllocateTable(capacity * sizeof(uint64_t)));
  for (uint64_t i = 0; i < dense_capacity_; ++i)
    if (dense_[i] != 0) table[dense_base_ + i - base] = dense_[i];
  FreeDense();
  dense_ = table;
  dense_base_ = base;
  dense_capacity_ = capacity;
}

void IntKeySet::FreeDense() {
  if (dense_ != nullptr) BlockCache::FreeTable(dense_, dense_capacity_ * sizeof(uint64_t));
  dense_ = nullptr;
  dense_base_ = dense_capacity_ = 0;
}

int64_t IntKeySet::InsertOutsideDense(uint64_t key, int64_t row) {
  const uint64_t last = dense_base_ + dense_capacity_ - 1;
  uint64_t base, capacity;
  // Double at least, toward the new key, while the range stays narrow.
  if (DenseRange(std::min(key, dense_base_), std::max(key, last), 2 * dense_capacity_, key < dense_base_, size_ + 1,
                 &base, &capacity)) {
    SetDense(base, capacity);
  } else {
    Rehash(CapacityFor(size_ + 1, kMinCapacity));  // too sparse: every key moves to the hash table
  }
  return InsertOrFind(key, row);
}

void IntKeySet::Reserve(int64_t expected_keys) {
  if (dense_ != nullptr) return;  // grows with its range
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
  if (dense_ != nullptr) {  // leaving dense mode: its keys move in
    for (uint64_t i = 0; i < dense_capacity_; ++i) {
      if (dense_[i] == 0) continue;
      uint64_t pos = Mix64(dense_base_ + i) & mask_;
      while (slots_[pos].row_plus_one != 0) pos = (pos + 1) & mask_;
      slots_[pos] = Slot{dense_base_ + i, dense_[i]};
    }
    FreeDense();
  }
}

}  // namespace griffin
