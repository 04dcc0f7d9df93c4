// A TableProfile for people: one line per column (`griffin profile` on a
// terminal, the default --format text).
#pragma once

#include <string>

#include "profile/table_profile.h"

namespace griffin {

std::string ProfileToText(const TableProfile& profile);

}  // namespace griffin
