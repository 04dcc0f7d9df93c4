#include "exec/unique_set.h"

#include <algorithm>
#include <cstring>

#include "exec/block_cache.h"
#include "exec/open_addressing.h"

namespace griffin {
namespace {
constexpr uint64_t kBlockBits = 22;                 // arena blocks of at most 4 MiB
constexpr uint64_t kBlockBytes = uint64_t{1} << kBlockBits;
constexpr uint64_t kFirstBlockBytes = uint64_t{1} << 16;  // 64 KiB, doubling per block up to 4 MiB
constexpr uint64_t kLengthBits = 24;
constexpr uint64_t kLargeKey = (uint64_t{1} << kLengthBits) - 1;  // length field value for large keys
constexpr uint64_t kLargeKeyBytes = kBlockBytes / 4;
constexpr uint64_t kMinCapacity = 1024;
}  // namespace

UniqueSet::UniqueSet() { Rehash(kMinCapacity); }

UniqueSet::~UniqueSet() {
  BlockCache::FreeTable(slots_, capacity_ * sizeof(Slot));
  for (const Block& block : blocks_) BlockCache::Free(block.data, block.bytes);
}

void UniqueSet::Reserve(int64_t expected_keys) {
  const uint64_t want = CapacityFor(expected_keys, kMinCapacity);
  if (want > capacity_) Rehash(want);
}

std::string_view UniqueSet::KeyOf(uint64_t ref) const {
  const uint64_t length = ref & kLargeKey;
  const uint64_t offset = ref >> kLengthBits;
  if (length == kLargeKey) {
    const std::string& key = large_keys_[offset];
    return std::string_view(key).substr(8);
  }
  const char* entry = blocks_[offset >> kBlockBits].data + (offset & (kBlockBytes - 1));
  return std::string_view(entry + 8, length);
}

int64_t UniqueSet::FirstRowOf(uint64_t ref) const {
  const uint64_t length = ref & kLargeKey;
  const uint64_t offset = ref >> kLengthBits;
  const char* entry = length == kLargeKey ? large_keys_[offset].data()
                                          : blocks_[offset >> kBlockBits].data + (offset & (kBlockBytes - 1));
  int64_t row;
  std::memcpy(&row, entry, 8);
  return row;
}

uint64_t UniqueSet::Append(std::string_view key, int64_t row) {
  if (key.size() >= kLargeKeyBytes) {
    std::string entry(8, '\0');
    std::memcpy(entry.data(), &row, 8);
    entry.append(key);
    large_keys_.push_back(std::move(entry));
    return ((large_keys_.size() - 1) << kLengthBits) | kLargeKey;
  }
  const uint64_t need = 8 + key.size();
  if (blocks_.empty() || block_used_ + need > block_bytes_) {
    // Small sets (a small batch) stay small; large ones soon get 4 MiB blocks.
    uint64_t bytes = blocks_.empty() ? kFirstBlockBytes : std::min(block_bytes_ * 2, kBlockBytes);
    while (bytes < need + 8) bytes *= 2;  // need < kLargeKeyBytes + 8, so bytes stays <= kBlockBytes
    blocks_.reserve(blocks_.size() + 1);  // so that the block below is never lost
    blocks_.push_back({static_cast<char*>(BlockCache::Allocate(bytes)), bytes});
    block_bytes_ = bytes;
    arena_bytes_ += static_cast<int64_t>(bytes);
    // Offset 0 of block 0 is never used, so that no ref is 0 (the empty mark).
    block_used_ = blocks_.size() == 1 ? 8 : 0;
  }
  char* entry = blocks_.back().data + block_used_;
  std::memcpy(entry, &row, 8);
  if (!key.empty()) std::memcpy(entry + 8, key.data(), key.size());
  const uint64_t offset = ((blocks_.size() - 1) << kBlockBits) | block_used_;
  block_used_ += need;
  return (offset << kLengthBits) | key.size();
}

int64_t UniqueSet::InsertOrFind(uint64_t hash, std::string_view key, int64_t row) {
  uint64_t pos = hash & mask_;
  while (true) {
    const Slot& slot = slots_[pos];
    if (slot.ref == 0) break;
    if (slot.hash == hash) {
      const uint64_t length = slot.ref & kLargeKey;
      if ((length == key.size() || length == kLargeKey) && KeyOf(slot.ref) == key) return FirstRowOf(slot.ref);
    }
    pos = (pos + 1) & mask_;
  }
  slots_[pos] = Slot{hash, Append(key, row)};
  ++size_;
  if (static_cast<uint64_t>(size_) * 4 > capacity_ * 3) Rehash(capacity_ * 2);
  return -1;
}

void UniqueSet::Rehash(uint64_t new_capacity) {
  Slot* old = slots_;
  const uint64_t old_capacity = capacity_;
  slots_ = static_cast<Slot*>(BlockCache::AllocateTable(new_capacity * sizeof(Slot)));
  capacity_ = new_capacity;
  mask_ = new_capacity - 1;
  MoveSlots(old, old_capacity, slots_, mask_, [](const Slot& slot) { return slot.ref != 0; },
            [](const Slot& slot) { return slot.hash; });
  if (old != nullptr) BlockCache::FreeTable(old, old_capacity * sizeof(Slot));
}

int64_t UniqueSet::memory_bytes() const {
  int64_t bytes = static_cast<int64_t>(capacity_ * sizeof(Slot)) + arena_bytes_;
  for (const std::string& key : large_keys_) bytes += static_cast<int64_t>(key.capacity());
  return bytes;
}

int64_t UniqueSet::growth_peak_bytes(int64_t more_keys) const {
  return GrowthPeakBytes(capacity_, size_, more_keys, sizeof(Slot));
}

}  // namespace griffin
