#include "exec/unique_set.h"

#include <cstring>
#include <string>

namespace griffin {
namespace {
constexpr size_t kBlockBytes = 1 << 22;          // offsets fit in 24 bits
constexpr uint32_t kEmpty = UINT32_MAX;
constexpr uint32_t kLargeKeyBlock = UINT32_MAX - 1;  // key lives in large_keys_[offset]
constexpr uint64_t kOffsetBits = 24;
}  // namespace

UniqueSet::UniqueSet() : slots_(1024, Slot{0, kEmpty, 0, 0}), mask_(1023) {}

std::string_view UniqueSet::KeyOf(const Slot& slot) const {
  uint64_t offset = slot.offset_and_row & ((1ULL << kOffsetBits) - 1);
  if (slot.block == kLargeKeyBlock) return large_keys_[offset];
  return std::string_view(blocks_[slot.block].get() + offset, slot.length);
}

UniqueSet::Slot UniqueSet::MakeSlot(uint64_t hash, std::string_view key, int64_t row) {
  const uint64_t row_bits = static_cast<uint64_t>(row) << kOffsetBits;
  if (key.size() >= kBlockBytes / 4) {
    large_keys_.emplace_back(key);
    return Slot{hash, kLargeKeyBlock, static_cast<uint32_t>(key.size()),
                row_bits | (large_keys_.size() - 1)};
  }
  if (blocks_.empty() || block_used_ + key.size() > kBlockBytes) {
    blocks_.emplace_back(new char[kBlockBytes]);
    block_used_ = 0;
  }
  char* dst = blocks_.back().get() + block_used_;
  if (!key.empty()) std::memcpy(dst, key.data(), key.size());
  Slot slot{hash, static_cast<uint32_t>(blocks_.size() - 1), static_cast<uint32_t>(key.size()),
            row_bits | block_used_};
  block_used_ += key.size();
  return slot;
}

int64_t UniqueSet::InsertOrFind(uint64_t hash, std::string_view key, int64_t row) {
  uint64_t pos = hash & mask_;
  while (true) {
    Slot& slot = slots_[pos];
    if (slot.block == kEmpty) break;
    if (slot.hash == hash && slot.length == key.size() && KeyOf(slot) == key)
      return static_cast<int64_t>(slot.offset_and_row >> kOffsetBits);
    pos = (pos + 1) & mask_;
  }
  slots_[pos] = MakeSlot(hash, key, row);
  ++size_;
  if (static_cast<uint64_t>(size_) * 2 > slots_.size()) Grow();
  return -1;
}

void UniqueSet::Grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.size() * 2, Slot{0, kEmpty, 0, 0});
  mask_ = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.block == kEmpty) continue;
    uint64_t pos = slot.hash & mask_;
    while (slots_[pos].block != kEmpty) pos = (pos + 1) & mask_;
    slots_[pos] = slot;
  }
}

int64_t UniqueSet::memory_bytes() const {
  int64_t bytes = static_cast<int64_t>(slots_.size() * sizeof(Slot) + blocks_.size() * kBlockBytes);
  for (const std::string& key : large_keys_) bytes += static_cast<int64_t>(key.capacity());
  return bytes;
}

}  // namespace griffin
