// JSON syntax checks where simdjson's DOM parser is stricter than JSON:
// it refuses numbers that are valid JSON but do not fit a double or a 64-bit
// integer (1e999, 99999999999999999999999). A JSON lines row with such a
// number is valid JSON; the number is a type violation of its column, not a
// malformed row.
//
//   if (dom_error == simdjson::NUMBER_ERROR && IsValidJsonIgnoringNumberRange(line)) ...
#pragma once

#include <string_view>

namespace griffin {

// True when `token` is a JSON number by RFC 8259's grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, whatever its magnitude.
bool IsJsonNumberToken(std::string_view token);

// True when `text` is one valid JSON object, array or number (surrounding
// whitespace allowed), numbers checked by IsJsonNumberToken only; false for
// anything else, other scalars included (for them the DOM parser's answer
// stands). `text` must be followed by simdjson::SIMDJSON_PADDING readable
// bytes. Nesting deeper than simdjson's default (1024 levels) is invalid.
bool IsValidJsonIgnoringNumberRange(std::string_view text);

}  // namespace griffin
