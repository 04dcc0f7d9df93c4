#include "util/random_hex.h"

#include <cstdint>
#include <random>

namespace griffin {

std::string RandomHex(int digits) {
  std::random_device device;
  const uint64_t value = (uint64_t{device()} << 32) ^ device();
  static const char kHex[] = "0123456789abcdef";
  std::string text;
  for (int i = 0; i < digits && i < 16; ++i) text += kHex[(value >> (4 * i)) & 15];
  return text;
}

}  // namespace griffin
