// Bitmasks of chosen bytes in 64-byte blocks (SSE2 where available): bit i is
// set when block[i] is one of the bytes. The CSV reader finds delimiters,
// line ends and quotes with them instead of a byte loop.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace griffin {

// Mask of the bytes of p[0, 64) equal to a, b or c (pass a byte twice for fewer).
inline uint64_t ByteMask64(const char* p, char a, char b, char c) {
#if defined(__SSE2__)
  const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b), vc = _mm_set1_epi8(c);
  uint64_t mask = 0;
  for (int part = 0; part < 4; ++part) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * part));
    __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb)),
                               _mm_cmpeq_epi8(v, vc));
    mask |= static_cast<uint64_t>(static_cast<uint16_t>(_mm_movemask_epi8(hit))) << (16 * part);
  }
  return mask;
#else
  uint64_t mask = 0;
  for (int i = 0; i < 64; ++i)
    if (p[i] == a || p[i] == b || p[i] == c) mask |= uint64_t{1} << i;
  return mask;
#endif
}

// As ByteMask64 for data[pos, min(pos + 64, size)); bits past size are clear.
inline uint64_t ByteMaskAt(const char* data, size_t size, size_t pos, char a, char b, char c) {
  if (pos >= size) return 0;
  if (size - pos >= 64) return ByteMask64(data + pos, a, b, c);
  char tail[64];
  std::memset(tail, 0, sizeof tail);
  std::memcpy(tail, data + pos, size - pos);
  return ByteMask64(tail, a, b, c) & ((uint64_t{1} << (size - pos)) - 1);
}

}  // namespace griffin
