// Arrow data from Python: the Arrow PyCapsule interface ("arrow_array_stream",
// from __arrow_c_stream__()), imported without libarrow_python.
#pragma once

#include <memory>
#include <string>

#include <arrow/c/abi.h>
#include <arrow/c/bridge.h>
#include <arrow/record_batch.h>
#include <nanobind/nanobind.h>

#include "py_errors.h"

namespace griffin::python {

// Moves the stream out of `capsule` (its release becomes null, so the
// capsule's destructor leaves it alone) into a reader that reads it in place.
// TypeError for anything but such a capsule, ValueError when already
// consumed, InputError (prefixed with `name`) when Arrow refuses it.
inline std::shared_ptr<arrow::RecordBatchReader> ImportStreamCapsule(nanobind::handle capsule,
                                                                     const std::string& name) {
  PyObject* cap = capsule.ptr();
  if (!PyCapsule_IsValid(cap, "arrow_array_stream"))
    throw nanobind::type_error("expected a PyCapsule named 'arrow_array_stream' (from __arrow_c_stream__())");
  auto* stream = static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(cap, "arrow_array_stream"));
  if (stream->release == nullptr) throw nanobind::value_error("the Arrow stream was already consumed");
  auto reader = arrow::ImportRecordBatchReader(stream);
  if (!reader.ok()) throw InputErrorCpp(name + ": " + reader.status().message());
  return std::move(*reader);
}

}  // namespace griffin::python
