#pragma once

#include <cstdint>
#include <limits>

namespace griffin {

// value * factor, clamped to int64's range instead of overflowing (undefined
// behaviour): a timestamp in seconds past ~292,000 years has no microsecond value.
inline int64_t SaturatingMul(int64_t value, int64_t factor) {
  int64_t product;
  if (!__builtin_mul_overflow(value, factor, &product)) return product;
  return (value < 0) != (factor < 0) ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
}

}  // namespace griffin
