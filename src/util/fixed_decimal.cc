#include "util/fixed_decimal.h"

#include <cstdint>

namespace griffin {

bool ParseFixedDecimal(std::string_view text, double* value) {
  // Exact doubles up to 1e22; at most 19 digits means at most 1e19 here.
  static constexpr double kPowersOfTen[20] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,
                                              1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19};
  uint64_t digits_value = 0;
  int digits = 0;
  int after_point = -1;  // digits after the '.'; -1: no '.' yet
  for (const char c : text) {
    const unsigned digit = static_cast<unsigned char>(c) - static_cast<unsigned>('0');
    if (digit <= 9) {
      if (++digits > 19) return false;  // 19 digits always fit in 64 bits
      digits_value = digits_value * 10 + digit;
      if (after_point >= 0) ++after_point;
    } else if (c == '.' && after_point < 0) {
      after_point = 0;
    } else {
      return false;
    }
  }
  if (digits == 0 || digits_value > (uint64_t{1} << 53)) return false;
  *value = static_cast<double>(digits_value) / kPowersOfTen[after_point < 0 ? 0 : after_point];
  return true;
}

}  // namespace griffin
