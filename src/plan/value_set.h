// Exact membership sets for `in` / `not_in` lists: built once when the plan
// is compiled, probed once per value by the column kernels.
//
//   IntValueSet: integer representations (int64, bool, date, timestamp). A
//     list spanning fewer than 65,536 consecutive values is a bitmap (one load
//     and a shift per probe); others are a sorted vector (binary search).
//   StringValueSet: byte strings, compared exactly. Values of at most 8 bytes
//     are one 64-bit word each, grouped by length, so a probe is a few integer
//     compares with no memcmp; longer values are a sorted vector.
// Copyable; immutable after construction, so thread-safe to probe.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace griffin {

class IntValueSet {
 public:
  IntValueSet() = default;
  explicit IntValueSet(std::vector<int64_t> values);

  bool Contains(int64_t value) const {
    if (!bitmap_.empty()) {
      const uint64_t at = static_cast<uint64_t>(value) - static_cast<uint64_t>(min_);
      return at < span_ && ((bitmap_[at >> 6] >> (at & 63)) & 1) != 0;
    }
    return ContainsSorted(value);
  }

 private:
  bool ContainsSorted(int64_t value) const;

  std::vector<int64_t> sorted_;    // distinct, ascending
  int64_t min_ = 0;
  uint64_t span_ = 0;              // bitmap: max - min + 1
  std::vector<uint64_t> bitmap_;   // empty unless the span is small
};

class StringValueSet {
 public:
  StringValueSet() = default;
  explicit StringValueSet(const std::vector<std::string>& values);

  bool Contains(std::string_view value) const {
    if (value.size() <= 8) {
      const std::vector<uint64_t>& words = short_[value.size()];
      if (words.empty()) return false;
      return ContainsWord(words, Pack(value));
    }
    return ContainsLong(value);
  }

 private:
  // The bytes of a string of at most 8 bytes as one zero-padded word (byte i
  // at bits 8i..8i+7), read with at most two fixed-size loads rather than a
  // variable-length memcpy.
  static uint64_t Pack(std::string_view value) {
    static_assert(std::endian::native == std::endian::little, "Pack assumes a little-endian layout");
    const size_t n = value.size();
    const auto* p = reinterpret_cast<const unsigned char*>(value.data());
    if (n >= 4) {  // two overlapping 4-byte loads: bytes 0..3 and n-4..n-1
      uint32_t low, high;
      std::memcpy(&low, p, 4);
      std::memcpy(&high, p + n - 4, 4);
      return uint64_t{low} | (uint64_t{high} << (8 * (n - 4)));
    }
    if (n == 0) return 0;
    return uint64_t{p[0]} | (uint64_t{p[n / 2]} << (8 * (n / 2))) | (uint64_t{p[n - 1]} << (8 * (n - 1)));
  }
  static bool ContainsWord(const std::vector<uint64_t>& words, uint64_t word) {
    if (words.size() > 8) return std::binary_search(words.begin(), words.end(), word);
    for (uint64_t w : words)
      if (w == word) return true;
    return false;
  }
  bool ContainsLong(std::string_view value) const;

  std::array<std::vector<uint64_t>, 9> short_;  // by byte length 0..8: packed words, ascending
  std::vector<std::string> long_;               // longer values, ascending
};

}  // namespace griffin
