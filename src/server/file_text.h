// Reading a small file (a rule file, the config) whole.
#pragma once

#include <string>

#include "util/status.h"

namespace griffin::server {

// The file's bytes; a UsageError "cannot read PATH: reason" otherwise.
Result<std::string> ReadFileText(const std::string& path);

}  // namespace griffin::server
