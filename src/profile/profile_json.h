// A TableProfile as the JSON document of docs/profile.md (`griffin profile
// --format json`, -o, griffin.profile() in Python). Deterministic: the same
// profile state gives the same bytes.
#pragma once

#include <string>
#include <vector>

#include "profile/table_profile.h"

namespace griffin {

std::string ProfileToJson(const TableProfile& profile, const std::vector<std::string>& inputs);

// The most top values and patterns a column lists.
inline constexpr size_t kListedTopValues = 20;

}  // namespace griffin
