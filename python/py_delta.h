// griffin._griffin's Delta helpers, for the Python readers of Report.split()
// and iter_batches() (which re-read the validated inputs with pyarrow):
//   is_delta_input(path) -> bool: the engine reads `path` as a Delta table
//     ("delta:PATH", or a folder or s3:// / gs:// prefix holding _delta_log,
//     time travel suffix allowed), as the CLI decides (io/source_registry.h).
//   delta_scan(path) -> (capsule, version): every column of the table's rows at
//     the version `path` names (deletion vectors applied), as the engine reads
//     them, as an "arrow_array_stream" PyCapsule; InputError with the CLI's
//     one line for a missing table, a bad version, a corrupt log.
#pragma once

#include <nanobind/nanobind.h>

namespace griffin::python {

void BindDelta(nanobind::module_& m);

}  // namespace griffin::python
