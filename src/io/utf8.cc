#include "io/utf8.h"

#include <cstdint>

namespace griffin {

bool IsAscii(std::string_view text) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
  constexpr size_t kBlock = 4096;
  for (size_t begin = 0; begin < text.size(); begin += kBlock) {
    const size_t end = begin + kBlock < text.size() ? begin + kBlock : text.size();
    uint8_t any = 0;  // an OR the compiler vectorizes
    for (size_t i = begin; i < end; ++i) any |= bytes[i];
    if (any & 0x80) return false;
  }
  return true;
}

size_t FindInvalidUtf8(std::string_view text) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    uint8_t b = bytes[i];
    if (b < 0x80) {
      ++i;
      continue;
    }
    size_t len;
    uint8_t lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (b >= 0xC2 && b <= 0xDF) {
      len = 2;
    } else if (b >= 0xE0 && b <= 0xEF) {
      len = 3;
      if (b == 0xE0) lo = 0xA0;       // no overlong forms
      if (b == 0xED) hi = 0x9F;       // no surrogates
    } else if (b >= 0xF0 && b <= 0xF4) {
      len = 4;
      if (b == 0xF0) lo = 0x90;       // no overlong forms
      if (b == 0xF4) hi = 0x8F;       // nothing above U+10FFFF
    } else {
      return i;
    }
    if (i + len > n) return i;
    if (bytes[i + 1] < lo || bytes[i + 1] > hi) return i;
    for (size_t k = 2; k < len; ++k)
      if ((bytes[i + k] & 0xC0) != 0x80) return i;
    i += len;
  }
  return std::string_view::npos;
}

}  // namespace griffin
