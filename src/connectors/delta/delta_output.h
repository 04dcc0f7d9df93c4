// --clean delta:PATH / --quarantine delta:PATH: the run's rows appended to a Delta
// table as ONE commit (the table is created, unpartitioned, when it has no log yet).
//
// The row sink writes Arrow IPC (the adapter's declared output format) into this
// OutputObject, which spools it to a temporary file; Commit() hands the rows to the
// kernel shim (griffin_delta_append), which writes the Parquet files and then puts
// _delta_log/<version>.json if absent. So a run that fails or is killed before the
// commit leaves no commit (a killed one at most unreferenced Parquet files, which a
// VACUUM removes), and a concurrent commit of the same version fails this one rather
// than being overwritten. CommittedObject::etag is "v=<committed version>", the
// version the report and the store show. Errors are InputErrors naming the table.
#pragma once

#include <memory>
#include <string>

#include "io/output_object.h"
#include "util/status.h"

namespace griffin::delta {

// The data files' pages are compressed with options.parquet_codec (Snappy by default).
Result<std::unique_ptr<OutputObject>> OpenDeltaOutput(const std::string& output, const OutputObjectOptions& options = {});

}  // namespace griffin::delta
