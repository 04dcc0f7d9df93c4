#include "profile/top_values.h"

#include <algorithm>

namespace griffin {

TopValues::Entry& TopValues::Slot(uint64_t hash, std::string_view value) {
  auto [it, inserted] = entries_.try_emplace(hash);
  if (inserted) {
    it->second.cut = value.size() > kMaxValueBytes;
    it->second.value.assign(value.substr(0, kMaxValueBytes));
  }
  return it->second;
}

void TopValues::Add(uint64_t hash, std::string_view value) {
  ++Slot(hash, value).count;
  if (entries_.size() > 2 * capacity_) Reduce();
}

void TopValues::Merge(const TopValues& other) {
  // In hash order, so the result does not depend on the map's iteration order.
  std::vector<uint64_t> hashes;
  hashes.reserve(other.entries_.size());
  for (const auto& [hash, entry] : other.entries_) hashes.push_back(hash);
  std::sort(hashes.begin(), hashes.end());
  for (uint64_t hash : hashes) {
    const Entry& theirs = other.entries_.at(hash);
    Entry& mine = Slot(hash, theirs.value);
    mine.cut = mine.cut || theirs.cut;
    mine.count += theirs.count;
  }
  exact_ = exact_ && other.exact_;
  max_error_ += other.max_error_;
  if (entries_.size() > capacity_) Reduce();
}

int64_t TopValues::ReductionCut(std::vector<int64_t> counts) const {
  if (counts.size() <= 2 * capacity_) return 0;
  std::nth_element(counts.begin(), counts.begin() + static_cast<std::ptrdiff_t>(capacity_), counts.end(),
                   std::greater<int64_t>());
  return counts[capacity_];
}

void TopValues::MergeReduced(const std::vector<Counted>& kept, int64_t cut) {
  TopValues part(capacity_);
  for (const Counted& c : kept) {
    if (c.count <= cut) continue;
    Entry& entry = part.Slot(c.hash, c.value);
    entry.count += c.count - cut;
  }
  part.exact_ = cut == 0;
  part.max_error_ = cut;
  Merge(part);
}

void TopValues::Reduce() {
  std::vector<int64_t> counts;
  counts.reserve(entries_.size());
  for (const auto& [hash, entry] : entries_) counts.push_back(entry.count);
  std::nth_element(counts.begin(), counts.begin() + static_cast<std::ptrdiff_t>(capacity_), counts.end(),
                   std::greater<int64_t>());
  const int64_t cut = counts[capacity_];
  for (auto it = entries_.begin(); it != entries_.end();) {
    it->second.count -= cut;
    it = it->second.count <= 0 ? entries_.erase(it) : std::next(it);
  }
  exact_ = false;
  max_error_ += cut;
}

std::vector<TopValues::Entry> TopValues::Top(size_t k) const {
  std::vector<Entry> all;
  all.reserve(entries_.size());
  for (const auto& [hash, entry] : entries_)
    if (entry.count > max_error_) all.push_back(entry);  // else it may be noise
  std::sort(all.begin(), all.end(), [](const Entry& a, const Entry& b) {
    return a.count != b.count ? a.count > b.count : a.value < b.value;
  });
  if (all.size() > k) all.resize(k);
  return all;
}

void TopValues::Serialize(ByteWriter* out) const {
  out->U64(capacity_);
  out->U8(exact_ ? 1 : 0);
  out->I64(max_error_);
  std::vector<uint64_t> hashes;
  for (const auto& [hash, entry] : entries_) hashes.push_back(hash);
  std::sort(hashes.begin(), hashes.end());
  out->U64(hashes.size());
  for (uint64_t hash : hashes) {
    const Entry& entry = entries_.at(hash);
    out->U64(hash);
    out->Bytes(entry.value);
    out->I64(entry.count);
    out->U8(entry.cut ? 1 : 0);
  }
}

bool TopValues::Deserialize(ByteReader* in) {
  entries_.clear();
  capacity_ = in->U64();
  exact_ = in->U8() == 1;
  max_error_ = in->I64();
  const uint64_t n = in->Count(33);
  if (capacity_ == 0 || capacity_ > (1u << 20) || n > 2 * capacity_ || max_error_ < 0) in->Fail();
  for (uint64_t i = 0; i < n && in->ok(); ++i) {
    const uint64_t hash = in->U64();
    Entry entry;
    entry.value = std::string(in->Bytes());
    entry.count = in->I64();
    entry.cut = in->U8() == 1;
    if (entry.count <= 0 || entry.value.size() > kMaxValueBytes) in->Fail();
    entries_[hash] = std::move(entry);
  }
  return in->ok();
}

}  // namespace griffin
