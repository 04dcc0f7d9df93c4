// Byte sizes as people write them on a command line (--memory-limit):
// a whole or decimal number with an optional unit, K/M/G/T (binary: 1 MB and
// 1 MiB are both 1,048,576 bytes), with or without B or iB (or "bytes" alone); case-insensitive,
// spaces between number and unit allowed. "512MB", "1.5g", "4096", "64 KiB".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "util/status.h"

namespace griffin {

// A UsageError names the text when it is not a size (or over 2^62 bytes).
Result<int64_t> ParseByteSize(std::string_view text);

// `bytes` for people, in the units ParseByteSize reads back: "512 bytes", "600 KB",
// "1.5 MB", "2 GB" (binary units, at most one decimal, trailing ".0" dropped).
std::string FormatByteSize(int64_t bytes);

}  // namespace griffin
