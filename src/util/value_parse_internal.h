// Small text helpers shared by the value parsers (value_parse.cc,
// date_time_parse.cc). Not part of the public interface.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace griffin::internal {

// `text` without leading and trailing ASCII spaces and tabs.
std::string_view TrimBlanks(std::string_view text);

// True when `text` equals `lower_word` ignoring ASCII case; `lower_word` must
// be lower case.
bool EqualsIgnoreCase(std::string_view text, std::string_view lower_word);

// ParseTimestamp without its fixed-layout fast path (util/fixed_timestamp.h):
// the reference the fast path is tested against.
std::optional<int64_t> ParseTimestampGeneral(std::string_view text);

// ParseFloat64 without its plain-decimal fast path (util/fixed_decimal.h),
// and ParseDate without its fixed-layout one (util/fixed_date.h): the
// references the fast paths are tested against.
std::optional<double> ParseFloat64General(std::string_view text);
std::optional<int64_t> ParseDateGeneral(std::string_view text);

}  // namespace griffin::internal
