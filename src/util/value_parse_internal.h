// Small text helpers shared by the value parsers (value_parse.cc,
// date_time_parse.cc). Not part of the public interface.
#pragma once

#include <string_view>

namespace griffin::internal {

// `text` without leading and trailing ASCII spaces and tabs.
std::string_view TrimBlanks(std::string_view text);

// True when `text` equals `lower_word` ignoring ASCII case; `lower_word` must
// be lower case.
bool EqualsIgnoreCase(std::string_view text, std::string_view lower_word);

}  // namespace griffin::internal
