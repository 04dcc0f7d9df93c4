// Compares an input's schema with the one cached by an earlier run of the same
// rules (the run store's schema cache), in words for the report, and keeps
// that cache (UpdateSchemaCache: griffin validate and recorded library runs):
//   "data/in.csv: column 'z' added", "...: column 'a' removed",
//   "...: column 'b' changed type from int64 to string"
#pragma once

#include <string>
#include <vector>

#include "report/report.h"
#include "store/run_store.h"
#include "util/status.h"

namespace griffin {

// `before` and `after` are JSON arrays [{"name": .., "type": ..}]. Unparseable
// input gives no changes.
std::vector<std::string> DescribeSchemaChanges(const std::string& input, const std::string& before,
                                               const std::string& after);

// The schema snapshot cache: an input whose file is unchanged (same path,
// size and mtime) under the same rules reuses its cached schema as is; a
// changed file is compared with the schema cached last time, the differences
// go into the report, and the new schema replaces the old. A database table
// is the same, with its catalogue's columns and types as the schema and its
// schema version (InputLineage::etag) in place of size and mtime. A Delta
// table, whose schema comes from its log, is keyed by the version read
// (its etag "v=N") in place of size and mtime.
Status UpdateSchemaCache(RunStore& store, const std::string& rules_sha256, const std::vector<InputLineage>& inputs,
                         Report* report);

}  // namespace griffin
