// The plain-decimal fast path of ParseFloat64 (value_parse.h), Clinger's:
// digits with at most one '.', no sign, exponent or blanks, at most 19 digits
// (leading zeros included) whose integer value is at most 2^53. Then both
// the digits' integer and the power of ten are exact doubles, and one IEEE
// division gives the correctly rounded value: the same double as from_chars.
// Anything else returns false and the general parser decides.
#pragma once

#include <string_view>

namespace griffin {

// True and the value in *value when `text` is such a plain decimal.
bool ParseFixedDecimal(std::string_view text, double* value);

}  // namespace griffin
