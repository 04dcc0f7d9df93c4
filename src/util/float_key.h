// The bits a float64 is counted and hashed by as a value: equal values give
// equal bits, -0.0 counts as 0.0 and every NaN as one NaN (the profile's
// distinct counts and top values, and validate's column profiles, agree on it).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace griffin {

inline uint64_t FloatKeyBits(double x) {
  const double normalized = x == 0 ? 0.0 : (std::isnan(x) ? std::nan("") : x);
  uint64_t bits;
  std::memcpy(&bits, &normalized, 8);
  return bits;
}

}  // namespace griffin
