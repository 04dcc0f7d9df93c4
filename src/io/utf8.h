// UTF-8 validation for text records.
#pragma once

#include <cstddef>
#include <string_view>

#include "util/value_parse.h"  // IsValidUtf8

namespace griffin {

// The 0-based offset of the first byte of the first invalid UTF-8 sequence in
// `text`, or std::string_view::npos when it is valid. Scalar; for error paths.
size_t FindInvalidUtf8(std::string_view text);

// True when every byte of `text` is ASCII (< 0x80): then any cut of it into
// values is valid UTF-8. Vectorized; stops at the first 4 KB block with a
// non-ASCII byte.
bool IsAscii(std::string_view text);

}  // namespace griffin
