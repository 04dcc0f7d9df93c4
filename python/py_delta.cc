#include "py_delta.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <arrow/c/abi.h>
#include <arrow/c/bridge.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>

#include "connectors/delta/delta_snapshot.h"
#include "connectors/delta/delta_table_ref.h"
#include "io/source_registry.h"
#include "py_errors.h"

namespace nb = nanobind;

namespace griffin::python {
namespace {

bool IsDelta(const std::string& path) {
  nb::gil_scoped_release release;  // a prefix in an object store is asked about once
  const std::optional<std::string> scheme = InputScheme(path);
  return scheme && *scheme == "delta";
}

void FreeStream(PyObject* capsule) {
  auto* stream = static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(capsule, "arrow_array_stream"));
  if (stream == nullptr) return;
  if (stream->release != nullptr) stream->release(stream);
  delete stream;
}

std::pair<nb::object, int64_t> Scan(const std::string& path) {
  Result<std::shared_ptr<arrow::RecordBatchReader>> reader = Status::Internal("not run");
  int64_t version = -1;
  {
    nb::gil_scoped_release release;
    reader = [&]() -> Result<std::shared_ptr<arrow::RecordBatchReader>> {
      ASSIGN_OR_RETURN(delta::DeltaTableRef ref, delta::ParseDeltaTableRef(path));
      ASSIGN_OR_RETURN(std::unique_ptr<delta::DeltaSnapshot> snapshot, delta::DeltaSnapshot::Open(ref));
      version = snapshot->version();
      return snapshot->Scan({});
    }();
  }
  std::shared_ptr<arrow::RecordBatchReader> batches = ValueOrRaise(std::move(reader));
  auto stream = std::make_unique<ArrowArrayStream>();
  if (arrow::Status exported = arrow::ExportRecordBatchReader(batches, stream.get()); !exported.ok())
    throw InputErrorCpp(path + ": " + exported.message());
  PyObject* capsule = PyCapsule_New(stream.get(), "arrow_array_stream", FreeStream);
  if (capsule == nullptr) {
    stream->release(stream.get());
    throw nb::python_error();
  }
  stream.release();
  return {nb::steal(capsule), version};
}

}  // namespace

void BindDelta(nb::module_& m) {
  m.def("is_delta_input", &IsDelta, nb::arg("path"));
  m.def("delta_scan", &Scan, nb::arg("path"));
}

}  // namespace griffin::python
