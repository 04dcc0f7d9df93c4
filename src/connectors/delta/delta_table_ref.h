// What a Delta input or output names: the table's location, the snapshot to read, and
// the object store settings.
//
//   delta:/data/events                 the latest version of a local table
//   /data/events                       the same, when the folder holds _delta_log
//   /data/events@v=12                  version 12 (time travel)
//   delta:/data/events@ts=2026-12-01T00:00:00Z
//                                      the latest version committed at or before that time
//   delta:s3://bucket/events?endpoint=http://127.0.0.1:9000&region=us-east-1
//                                      a table in an object store (query as object_uri.h)
//
// The timestamp is ISO 8601 (util/value_parse.h ParseTimestamp; no zone means UTC).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/status.h"

namespace griffin::delta {

struct DeltaTableRef {
  std::string location;                 // local folder or s3:// / gs:// URI, no query, no @
  std::optional<int64_t> version;       // @v=N
  std::optional<int64_t> timestamp_ms;  // @ts=...
  std::vector<std::pair<std::string, std::string>> store_options;  // object_store keys
  std::string display;                  // how messages name it: "delta:LOCATION[@...]"
};

// True for "delta:..." (case-insensitive prefix).
bool HasDeltaPrefix(std::string_view input);

// True when `input` is a Delta table: "delta:..." or a local folder (time travel
// suffix allowed) holding _delta_log. Looks at the disk.
bool IsDeltaInput(std::string_view input);

// Parses a Delta input or output. UsageError naming it for a bad version, time or query.
Result<DeltaTableRef> ParseDeltaTableRef(std::string_view input);

}  // namespace griffin::delta
