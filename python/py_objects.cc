#include "py_objects.h"

#include <string>
#include <vector>

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "connectors/objectstore/object_store.h"
#include "connectors/objectstore/object_uri.h"
#include "io/input_source.h"
#include "py_errors.h"

namespace nb = nanobind;

namespace griffin::python {
namespace {

std::vector<std::string> ExpandPaths(const std::vector<std::string>& paths) {
  Result<std::vector<std::string>> expanded = Status::Internal("not run");
  {
    nb::gil_scoped_release release;
    expanded = ExpandInputs(paths);
  }
  return ValueOrRaise(std::move(expanded));
}

nb::dict ObjectClientSettings(const std::string& text) {
  const ObjectUri uri = ValueOrRaise(ParseObjectUri(text));
  const ClientSettings settings = ValueOrRaise(ClientSettingsFor(uri));
  nb::dict out;
  out["scheme"] = uri.scheme;
  out["bucket_path"] = uri.FsPath();
  out["display"] = uri.Display();
  out["endpoint_scheme"] = settings.endpoint_scheme;
  out["endpoint_host_port"] = settings.endpoint_host_port;
  out["region"] = settings.region;
  out["anonymous"] = settings.anonymous;
  return out;
}

}  // namespace

void BindObjectStores(nb::module_& m) {
  m.def("expand_inputs", &ExpandPaths, nb::arg("paths"));
  m.def("object_client_settings", &ObjectClientSettings, nb::arg("uri"));
}

}  // namespace griffin::python
