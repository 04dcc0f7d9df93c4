// The command line's input options (--input-format, --delimiter, --no-header,
// --null-value), shared by `griffin validate`, `profile` and `suggest`.
#pragma once

#include <string>
#include <vector>

#include "io/input_source.h"
#include "util/status.h"

namespace griffin {

// Applies the options given (empty ones leave `options` as it is). Usage
// errors name the option.
Status ApplyReadArgs(const std::string& input_format, const std::string& delimiter, bool no_header,
                     const std::vector<std::string>& null_values, ReadOptions* options);

}  // namespace griffin
