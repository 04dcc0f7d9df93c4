// The headers `griffin stream` adds to the records it writes, and the version
// counter it keeps in the consumer group's committed offsets.
//
// Clean topic:       griffin-version  the record's per-dataset sequence number (decimal)
//                    griffin-rules    the sha256 (hex) of the rule file that judged it
// Dead-letter topic: griffin-errors   [{"check": "amount.min", "message": "..."}, ...]
//                    griffin-source   {"topic": "raw", "partition": 0, "offset": 42}
//                    griffin-rules    as above
//
// The next version number travels in the metadata of the offsets committed in
// each transaction ("griffin-next-version=N"), so it commits or aborts with the
// records that used the numbers before it: never reused, never skipped.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sinks/row_sink.h"

namespace griffin::kafka {

inline constexpr const char* kVersionHeader = "griffin-version";
inline constexpr const char* kRulesHeader = "griffin-rules";
inline constexpr const char* kErrorsHeader = "griffin-errors";
inline constexpr const char* kSourceHeader = "griffin-source";

std::string ErrorsHeader(const std::vector<RowError>& errors);
std::string SourceHeader(std::string_view topic, int32_t partition, int64_t offset);

std::string VersionMetadata(int64_t next_version);
// The next version in committed offset metadata; nullopt when it holds none.
std::optional<int64_t> ParseVersionMetadata(std::string_view metadata);

}  // namespace griffin::kafka
