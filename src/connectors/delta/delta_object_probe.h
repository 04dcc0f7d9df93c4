// Whether an s3:// or gs:// prefix is a Delta table: it holds _delta_log/, as a local
// folder that holds _delta_log is one (delta_table_ref.h IsDeltaInput), so
// `griffin validate s3://bucket/events` reads the table, not its Parquet files.
//
// One request per location (a GetFileInfo of PREFIX/_delta_log: S3 a HEAD and a
// one-key listing, GCS likewise), remembered for kProbeTtl so that the many
// questions a run asks about one input cost one request. A URI whose key names a
// file by its extension (x.parquet, x.csv.gz) is never asked about. A store that
// cannot answer (no bucket, refused credentials, down) is "not a table": the object
// store adapter then reports the error on one line, as for any object.
#pragma once

#include <chrono>
#include <string_view>

namespace griffin::delta {

inline constexpr std::chrono::seconds kProbeTtl{60};

// `location`: an s3:// or gs:// URI (query allowed), without a time travel suffix.
bool ObjectPrefixHoldsDeltaLog(std::string_view location);

}  // namespace griffin::delta
