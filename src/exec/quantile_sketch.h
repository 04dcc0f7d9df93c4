// Nearest-rank quantiles over a stream of values fed in row order.
//
// Exact (all values kept) up to kExactLimit values; past that, a deterministic
// compacting sketch (Manku-Rajagopalan-Lindsay style): level h holds up to
// kLevelCapacity values of weight 2^h; a full level is sorted and every other
// value (alternating start per level) moves up. The rank error is at most
// n * levels / kLevelCapacity: 0.33% at 10^12 values, so within the 0.5%
// that rules-v1 allows. Memory: about 64 KiB per level, ~1.5 MB at most.
// Deterministic: the same values in the same order give the same answer, which
// is why the merger feeds it in row order.
//
// Ordering: NaN sorts after +inf (as numpy and pandas sort).
//
// Mergeable (column profiles, src/profile/): Merge(other) adds another
// sketch's values, level by level (sorted merges; a level at capacity or
// beyond is compacted whole, each compaction of level h moving a rank by at
// most 2^h, so the bound above holds); the same merges in the same order give
// the same bytes. Serialize/Deserialize
// keep the whole state. A smaller exact limit bounds a profile's memory per
// column (the sketch keeps at most exact_limit values before compacting).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "util/byte_codec.h"

namespace griffin {

template <typename T>
class QuantileSketch {
 public:
  static constexpr size_t kExactLimit = 1 << 20;
  static constexpr size_t kLevelCapacity = 8192;
  // More levels than 2^63 values could fill (each holds kLevelCapacity at most).
  static constexpr size_t kMaxLevels = 62;

  QuantileSketch() = default;
  explicit QuantileSketch(size_t exact_limit) : exact_limit_(exact_limit) {}

  static bool Less(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(a)) return false;
      if (std::isnan(b)) return true;
    }
    return a < b;
  }
  // Less as a function object: the standard algorithms inline it (passed as
  // a function pointer, each comparison of a sort was an indirect call).
  struct LessFn {
    bool operator()(T a, T b) const { return Less(a, b); }
  };

  void Add(T value) {
    ++count_;
    if (levels_.empty()) {
      exact_.push_back(value);
      if (exact_.size() > exact_limit_) SpillExact();
      return;
    }
    AddToLevel(0, value);
  }

  // Adds `value` `weight` times (the same as `weight` calls of Add).
  void AddRepeated(T value, int64_t weight) {
    if (weight <= 0) return;
    if (!levels_.empty()) {
      for (int64_t i = 0; i < weight; ++i) Add(value);
      return;
    }
    count_ += weight;
    exact_.insert(exact_.end(), static_cast<size_t>(weight), value);
    if (exact_.size() > exact_limit_) SpillExact();
  }

  // Sorts the exact values (a worker's last step, so that merging them into a
  // compacted sketch is linear); answers do not change.
  void SortExact() {
    if (levels_.empty()) std::sort(exact_.begin(), exact_.end(), LessFn{});
  }

  // Adds `other`'s values after this sketch's: appended while the union is
  // exact; else level by level, each level's values merged in sorted order
  // and a level that reaches kLevelCapacity compacted at once (every other
  // value moves up). Linear when other's values are sorted (SortExact).
  void Merge(const QuantileSketch& other) {
    count_ += other.count_;
    if (levels_.empty() && other.levels_.empty()) {
      exact_.insert(exact_.end(), other.exact_.begin(), other.exact_.end());
      if (exact_.size() > exact_limit_) SpillExact();
      return;
    }
    if (levels_.empty()) SpillExact();
    std::vector<T> carry = SortedCopy(other.exact_);  // weight 1: level 0
    for (size_t h = 0; h < other.levels_.size() || !carry.empty(); ++h) {
      if (h < other.levels_.size() && !other.levels_[h].empty())
        carry = MergeSorted(std::move(carry), SortedCopy(other.levels_[h]));
      if (carry.empty()) continue;
      Settle(h, std::move(carry));
      carry = Compact(h);
    }
  }

  // Calls fn(value, weight) for every value kept (weight 1 while exact).
  template <typename Fn>
  void ForEachWeighted(Fn&& fn) const {
    for (T v : exact_) fn(v, int64_t{1});
    for (size_t h = 0; h < levels_.size(); ++h)
      for (T v : levels_[h]) fn(v, int64_t{1} << h);
  }

  void Serialize(ByteWriter* out) const {
    out->U64(exact_limit_);
    out->I64(count_);
    PutValues(exact_, out);
    out->U64(levels_.size());
    for (size_t h = 0; h < levels_.size(); ++h) {
      out->U8(parity_[h]);
      PutValues(levels_[h], out);
    }
  }
  // False (and `in` failed) when the bytes are not a sketch.
  bool Deserialize(ByteReader* in) {
    exact_limit_ = in->U64();
    count_ = in->I64();
    GetValues(in, &exact_);
    levels_.assign(in->Count(9), {});
    parity_.assign(levels_.size(), 0);
    for (size_t h = 0; h < levels_.size() && in->ok(); ++h) {
      parity_[h] = in->U8() & 1;
      GetValues(in, &levels_[h]);
    }
    if (exact_limit_ == 0 || count_ < 0 || levels_.size() > kMaxLevels || !Consistent()) in->Fail();
    return in->ok();
  }

  int64_t count() const { return count_; }
  bool exact() const { return levels_.empty(); }

  // What Quantile relies on, checked on bytes read back (a damaged state
  // must be refused, not read out of bounds): exact, it holds count_ values;
  // compacted, no exact values, at least one retained value when count_ > 0,
  // and retained weights whose sum fits in 64 bits.
  bool Consistent() const {
    if (levels_.empty()) return static_cast<uint64_t>(count_) == exact_.size();
    if (!exact_.empty()) return false;
    int64_t total = 0;
    for (size_t h = 0; h < levels_.size(); ++h)
      for (size_t i = 0; i < levels_[h].size(); ++i)
        if (__builtin_add_overflow(total, int64_t{1} << h, &total)) return false;
    return count_ == 0 || total > 0;
  }

  // Nearest rank: the smallest value whose cumulative weight reaches
  // max(1, ceil(q * n)). nullopt when empty.
  std::optional<T> Quantile(double q) const {
    if (count_ == 0) return std::nullopt;
    int64_t rank = static_cast<int64_t>(std::ceil(q * static_cast<double>(count_)));
    rank = std::clamp<int64_t>(rank, 1, count_);
    if (levels_.empty()) {
      std::vector<T> sorted = exact_;
      std::nth_element(sorted.begin(), sorted.begin() + (rank - 1), sorted.end(), LessFn{});
      return sorted[rank - 1];
    }
    std::vector<std::pair<T, int64_t>> weighted;
    for (size_t h = 0; h < levels_.size(); ++h)
      for (T v : levels_[h]) weighted.emplace_back(v, int64_t{1} << h);
    std::sort(weighted.begin(), weighted.end(),
              [](const auto& a, const auto& b) { return Less(a.first, b.first); });
    // Weights sum to about count_; scale the rank to the retained weight.
    int64_t total = 0;
    for (const auto& w : weighted) total += w.second;
    const int64_t target = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(q * static_cast<double>(total))));
    int64_t cumulative = 0;
    for (const auto& w : weighted) {
      cumulative += w.second;
      if (cumulative >= target) return w.first;
    }
    return weighted.back().first;
  }

 private:
  void SpillExact() {
    std::vector<T> values = std::move(exact_);
    exact_.clear();
    exact_.shrink_to_fit();
    if (levels_.empty()) {  // a sketch that has compacted never keeps exact values
      levels_.resize(1);
      parity_.resize(1, 0);
    }
    std::sort(values.begin(), values.end(), LessFn{});
    std::vector<T> carry = std::move(values);
    for (size_t h = 0; !carry.empty(); ++h) {
      Settle(h, std::move(carry));
      carry = Compact(h);
    }
  }

  static std::vector<T> SortedCopy(const std::vector<T>& values) {
    std::vector<T> copy = values;
    if (!std::is_sorted(copy.begin(), copy.end(), LessFn{})) std::sort(copy.begin(), copy.end(), LessFn{});
    return copy;
  }
  static std::vector<T> MergeSorted(std::vector<T> a, const std::vector<T>& b) {
    if (a.empty()) return b;
    const size_t middle = a.size();
    a.insert(a.end(), b.begin(), b.end());
    std::inplace_merge(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(middle), a.end(), LessFn{});
    return a;
  }
  // Merges sorted `values` into level h (sorting the level first: Add leaves
  // level 0 unsorted).
  void Settle(size_t h, std::vector<T> values) {
    if (h >= levels_.size()) {
      levels_.resize(h + 1);
      parity_.resize(h + 1, 0);
    }
    std::vector<T>& level = levels_[h];
    if (!std::is_sorted(level.begin(), level.end(), LessFn{})) std::sort(level.begin(), level.end(), LessFn{});
    level = MergeSorted(std::move(values), level);
  }
  // A sorted level h with kLevelCapacity values or more empties: every other
  // value (alternating start) is returned, sorted, for level h + 1.
  std::vector<T> Compact(size_t h) {
    std::vector<T>& level = levels_[h];
    if (level.size() < kLevelCapacity) return {};
    std::vector<T> up;
    up.reserve(level.size() / 2 + 1);
    for (size_t i = parity_[h]; i < level.size(); i += 2) up.push_back(level[i]);
    parity_[h] ^= 1;
    level.clear();
    return up;
  }

  static void PutValues(const std::vector<T>& values, ByteWriter* out) {
    out->U64(values.size());
    for (T v : values) {
      uint64_t bits;
      std::memcpy(&bits, &v, 8);
      out->U64(bits);
    }
  }
  static void GetValues(ByteReader* in, std::vector<T>* values) {
    values->resize(in->Count(8));
    for (T& v : *values) {
      const uint64_t bits = in->U64();
      std::memcpy(&v, &bits, 8);
    }
  }

  void AddToLevel(size_t level, T value) {
    if (level >= levels_.size()) {
      levels_.resize(level + 1);
      parity_.resize(level + 1, 0);
    }
    levels_[level].push_back(value);
    if (levels_[level].size() < kLevelCapacity) return;
    std::vector<T> full = std::move(levels_[level]);
    levels_[level].clear();
    std::sort(full.begin(), full.end(), LessFn{});
    const size_t start = parity_[level];
    parity_[level] ^= 1;
    for (size_t i = start; i < full.size(); i += 2) AddToLevel(level + 1, full[i]);
  }

  static_assert(sizeof(T) == 8, "values are serialized as 8 bytes");
  size_t exact_limit_ = kExactLimit;
  int64_t count_ = 0;
  std::vector<T> exact_;
  std::vector<std::vector<T>> levels_;
  std::vector<uint8_t> parity_;
};

}  // namespace griffin
