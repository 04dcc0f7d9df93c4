// The fixed-layout fast path of ParseDate (value_parse.h): exactly
// "YYYY-MM-DD", ten bytes, checked and decoded 8 bytes at a time. Anything
// else (blanks, other lengths, invalid dates) returns false and the general
// parser decides; when the fast path accepts, its value is the general
// parser's.
#pragma once

#include <cstdint>
#include <string_view>

namespace griffin {

// True and the days since 1970-01-01 in *days when `text` is exactly a valid
// "YYYY-MM-DD" date; false otherwise (not necessarily invalid).
bool ParseFixedDate(std::string_view text, int64_t* days);

}  // namespace griffin
