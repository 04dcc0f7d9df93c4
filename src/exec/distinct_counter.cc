#include "exec/distinct_counter.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "exec/open_addressing.h"

namespace griffin {

void DistinctCounter::Add(uint64_t hash) {
  if (registers_.empty()) registers_.assign(size_t{1} << kRegisterBits, 0);
  const uint64_t index = hash >> (64 - kRegisterBits);
  const uint64_t rest = (hash << kRegisterBits) | (uint64_t{1} << (kRegisterBits - 1));
  const uint8_t rank = static_cast<uint8_t>(std::countl_zero(rest) + 1);
  registers_[index] = std::max(registers_[index], rank);
  if (kept_all_) Insert(hash);
}

void DistinctCounter::AddAll(const std::vector<uint64_t>& hashes) {
  if (hashes.empty()) return;
  if (registers_.empty()) registers_.assign(size_t{1} << kRegisterBits, 0);
  for (uint64_t hash : hashes) {
    const uint64_t index = hash >> (64 - kRegisterBits);
    const uint64_t rest = (hash << kRegisterBits) | (uint64_t{1} << (kRegisterBits - 1));
    registers_[index] = std::max(registers_[index], static_cast<uint8_t>(std::countl_zero(rest) + 1));
  }
  if (!kept_all_) return;
  InsertMany(hashes.data(), hashes.size());
}

void DistinctCounter::InsertMany(const uint64_t* hashes, size_t count) {
  const uint64_t want = std::min<uint64_t>(static_cast<uint64_t>(size_) + count, limit_ + 1);
  while ((want + 1) * 4 > table_.size() * 3) Grow();
  constexpr size_t kAhead = 8;
  for (size_t i = 0; i < count && kept_all_; ++i) {
    if (i + kAhead < count && !table_.empty()) __builtin_prefetch(&table_[hashes[i + kAhead] & (table_.size() - 1)]);
    Insert(hashes[i]);
  }
}

void DistinctCounter::Insert(uint64_t hash) {
  if (hash == 0) {
    size_ += !has_zero_;
    has_zero_ = true;
  } else {
    if (static_cast<uint64_t>(size_ + 1) * 4 > table_.size() * 3) Grow();
    const uint64_t mask = table_.size() - 1;
    uint64_t pos = hash & mask;  // hashes are already mixed
    while (table_[pos] != 0 && table_[pos] != hash) pos = (pos + 1) & mask;
    if (table_[pos] == 0) {
      table_[pos] = hash;
      ++size_;
    }
  }
  if (size_ > limit_) DropHashes();
}

void DistinctCounter::Grow() {
  std::vector<uint64_t> old = std::move(table_);
  table_.assign(std::max<size_t>(64, old.size() * 2), 0);
  const uint64_t mask = table_.size() - 1;
  MoveSlots(old.data(), old.size(), table_.data(), mask, [](uint64_t slot) { return slot != 0; },
            [](uint64_t slot) { return slot; });
}

void DistinctCounter::DropHashes() {
  kept_all_ = false;
  exact_ = false;
  std::vector<uint64_t>().swap(table_);
  size_ = 0;
  has_zero_ = false;
}

void DistinctCounter::Merge(const DistinctCounter& other, const std::vector<uint64_t>& other_hashes) {
  if (!other.registers_.empty()) {
    if (registers_.empty()) registers_.assign(size_t{1} << kRegisterBits, 0);
    for (size_t i = 0; i < registers_.size(); ++i) registers_[i] = std::max(registers_[i], other.registers_[i]);
  }
  if (!exact_) return;
  limit_ = kExactLimit;  // a total keeps up to the exact limit
  if (other.kept_all_) {
    if (other.has_zero_) Insert(0);
    for (uint64_t hash : other.table_)
      if (hash != 0 && exact_) Insert(hash);
  } else {
    InsertMany(other_hashes.data(), other_hashes.size());  // stops once no longer exact
  }
}

void DistinctCounter::MergeState(const DistinctCounter& other) {
  if (NeedsHashesOf(other)) {
    limit_ = kExactLimit;
    DropHashes();
  }
  Merge(other, {});
}

void DistinctCounter::Serialize(ByteWriter* out) const {
  out->U8(static_cast<uint8_t>((kept_all_ ? 1 : 0) | (exact_ ? 2 : 0) | (has_zero_ ? 4 : 0)));
  out->I64(limit_);
  out->Bytes(std::string_view(reinterpret_cast<const char*>(registers_.data()), registers_.size()));
  std::vector<uint64_t> kept;  // sorted: the bytes do not depend on the table's layout
  kept.reserve(static_cast<size_t>(size_));
  for (uint64_t hash : table_)
    if (hash != 0) kept.push_back(hash);
  std::sort(kept.begin(), kept.end());
  out->U64(kept.size());
  for (uint64_t hash : kept) out->U64(hash);
}

bool DistinctCounter::Deserialize(ByteReader* in) {
  *this = DistinctCounter();
  const uint8_t flags = in->U8();
  const int64_t limit = in->I64();
  const std::string_view registers = in->Bytes();
  if (!registers.empty() && registers.size() != (size_t{1} << kRegisterBits)) in->Fail();
  const uint64_t kept = in->Count(8);
  if (!in->ok() || limit < 1 || limit > kExactLimit) {
    in->Fail();
    return false;
  }
  limit_ = std::max<int64_t>(limit, kept + 1);
  registers_.assign(registers.begin(), registers.end());
  if (flags & 4) Insert(0);
  for (uint64_t i = 0; i < kept; ++i) {
    const uint64_t hash = in->U64();
    if (hash != 0) Insert(hash);
  }
  limit_ = limit;
  kept_all_ = flags & 1;
  exact_ = flags & 2;
  if (!in->ok()) return false;
  if (size_ > limit_ || (exact_ && !kept_all_)) in->Fail();
  return in->ok();
}

int64_t DistinctCounter::Count() const {
  if (exact_) return size_;
  return HyperLogLog();
}

int64_t DistinctCounter::HyperLogLog() const {
  if (registers_.empty()) return 0;
  // HyperLogLog estimate with the small-range (linear counting) correction.
  const double m = static_cast<double>(registers_.size());
  double sum = 0;
  int zeros = 0;
  for (uint8_t r : registers_) {
    sum += std::ldexp(1.0, -r);
    zeros += r == 0;
  }
  const double alpha = 0.7213 / (1 + 1.079 / m);
  double estimate = alpha * m * m / sum;
  if (estimate <= 2.5 * m && zeros > 0) estimate = m * std::log(m / zeros);
  return static_cast<int64_t>(std::llround(estimate));
}

}  // namespace griffin
