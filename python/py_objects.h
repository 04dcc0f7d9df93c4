// griffin._griffin's object store helpers, for the Python readers that make
// their own pyarrow filesystems (griffin.iter_batches, Report.split on URIs):
//   expand_inputs(paths) -> list[str]: the inputs as the CLI expands them
//     (an s3:// or gs:// prefix becomes its objects); InputError naming a
//     missing bucket, object or empty prefix.
//   object_client_settings(uri) -> dict: {"scheme", "bucket_path", "display",
//     "endpoint_scheme", "endpoint_host_port", "region", "anonymous"}, the
//     settings the engine's own client of that store takes (endpoint from
//     ?endpoint= or the environment, region ...); RuleError for a bad URI.
#pragma once

#include <nanobind/nanobind.h>

namespace griffin::python {

void BindObjectStores(nanobind::module_& m);

}  // namespace griffin::python
