// Random lowercase hex digits from std::random_device, for names that must not
// collide between processes (temporary files and objects).
#pragma once

#include <string>

namespace griffin {

// `digits` hex digits (at most 16).
std::string RandomHex(int digits = 12);

}  // namespace griffin
