// The fixed-layout fast path of ParseTimestamp (value_parse.h): exactly
// "YYYY-MM-DDTHH:MM:SS" or "YYYY-MM-DD HH:MM:SS", optionally followed by "Z",
// the layout rule files and exporters write most. Anything else (blanks,
// fractions, offsets, other lengths) returns false and the general parser
// decides; when it accepts, its value is the general parser's.
#pragma once

#include <cstdint>
#include <string_view>

namespace griffin {

// True and the UTC microseconds in *micros when `text` has the fixed layout
// and is a valid date and time; false otherwise (not necessarily invalid).
bool ParseFixedTimestamp(std::string_view text, int64_t* micros);

}  // namespace griffin
