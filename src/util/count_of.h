// A count with its noun in the right number, for messages and text output:
// CountOf(1, "run") is "1 run", CountOf(0, "run") and CountOf(3, "run") end in
// "runs". Irregular plurals are given: CountOf(2, "query", "queries").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace griffin {

// `count`, a space, then `singular` when count is 1 (or -1), else `plural`
// (default: singular + "s").
std::string CountOf(int64_t count, std::string_view singular, std::string_view plural = {});

}  // namespace griffin
