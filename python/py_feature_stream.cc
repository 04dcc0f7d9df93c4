#include "py_feature_stream.h"

#include <map>
#include <vector>

#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>

#include "py_arrow.h"
#include "py_errors.h"
#include "report/json_writer.h"

namespace nb = nanobind;

namespace griffin::python {
namespace {

template <typename T>
T Get(const nb::dict& options, const char* key, T fallback) {
  if (!options.contains(key) || options[key].is_none()) return fallback;
  return nb::cast<T>(options[key]);
}

nb::dlpack::dtype NumpyDType(FeatureDType dtype) {
  switch (dtype) {
    case FeatureDType::kFloat32: return nb::dtype<float>();
    case FeatureDType::kFloat64: return nb::dtype<double>();
    case FeatureDType::kInt32: return nb::dtype<int32_t>();
    case FeatureDType::kInt64: return nb::dtype<int64_t>();
    case FeatureDType::kBool: return nb::dtype<bool>();
  }
  return nb::dtype<uint8_t>();
}

// A numpy array over `buffer` (no copy); the array keeps the buffer alive.
nb::object ArrayOver(std::shared_ptr<arrow::Buffer> buffer, int64_t rows, FeatureDType dtype) {
  auto* owner = new std::shared_ptr<arrow::Buffer>(std::move(buffer));
  nb::capsule keep(owner, [](void* p) noexcept { delete static_cast<std::shared_ptr<arrow::Buffer>*>(p); });
  const size_t shape[1] = {static_cast<size_t>(rows)};
  void* data = (*owner)->is_mutable() ? (*owner)->mutable_data() : const_cast<uint8_t*>((*owner)->data());
  nb::ndarray<nb::numpy, nb::ndim<1>> array(data, 1, shape, keep, nullptr, NumpyDType(dtype));
  return nb::cast(array, nb::rv_policy::reference);
}

}  // namespace

PyFeatureStream PyFeatureStream::Open(std::shared_ptr<const Validator> validator, nb::handle source,
                                      const std::string& name, const nb::dict& options) {
  std::vector<std::string> names;
  if (options.contains("columns") && !options["columns"].is_none())
    for (nb::handle column : options["columns"]) names.push_back(nb::cast<std::string>(column));
  std::map<std::string, std::string> dtypes;
  if (options.contains("dtypes") && !options["dtypes"].is_none())
    for (auto [key, value] : nb::cast<nb::dict>(options["dtypes"]))
      dtypes[nb::cast<std::string>(key)] = nb::cast<std::string>(value);
  auto columns = ValueOrRaise(PlanFeatureColumns(validator->plan(), names, dtypes, Get(options, "narrow", true)));

  FeatureStreamOptions stream_options;
  stream_options.batcher.batch_size = Get<int64_t>(options, "batch_size", 128);
  stream_options.batcher.shuffle_buffer = Get<int64_t>(options, "shuffle_buffer", 0);
  stream_options.batcher.seed = Get<uint64_t>(options, "seed", 0);
  stream_options.batcher.drop_remainder = Get(options, "drop_remainder", true);
  stream_options.prefetch = Get(options, "prefetch", 2);
  stream_options.threads = Get(options, "threads", 0);
  stream_options.read_batch_rows = Get<int64_t>(options, "read_batch_rows", 65536);
  stream_options.max_violations = Get<int64_t>(options, "max_violations", 1000);
  stream_options.quarantine_path = Get<std::string>(options, "quarantine", "");
  if (stream_options.prefetch < 1) throw RuleErrorCpp("prefetch: must be at least 1");
  if (stream_options.read_batch_rows < 1) throw RuleErrorCpp("read_batch_rows: must be at least 1");

  if (nb::isinstance<nb::list>(source)) {
    std::vector<std::string> paths;
    for (nb::handle path : source) paths.push_back(nb::cast<std::string>(path));
    return PyFeatureStream(
        ValueOrRaise(FeatureStream::OpenPaths(validator, std::move(paths), std::move(columns), stream_options)));
  }
  std::shared_ptr<arrow::RecordBatchReader> reader = ImportStreamCapsule(source, name);
  return PyFeatureStream(
      ValueOrRaise(FeatureStream::OpenReader(validator, std::move(reader), name, std::move(columns), stream_options)));
}

PyFeatureStream::~PyFeatureStream() {
  if (!stream_) return;
  stream_->Cancel();
  if (PyGILState_Check()) {
    nb::gil_scoped_release release;
    stream_.reset();
  } else {
    stream_.reset();
  }
}

nb::object PyFeatureStream::Next() {
  Result<std::optional<FeatureBatch>> next = Status::Internal("not run");
  {
    nb::gil_scoped_release release;
    next = stream_->Next();
  }
  std::optional<FeatureBatch> batch = ValueOrRaise(std::move(next));
  if (!batch) return nb::none();
  const auto& columns = stream_->columns();
  nb::list arrays;
  for (size_t c = 0; c < columns.size(); ++c)
    arrays.append(ArrayOver(std::move(batch->columns[c]), batch->rows, columns[c].dtype));
  return nb::tuple(arrays);
}

nb::list PyFeatureStream::Columns() const {
  nb::list out;
  for (const FeatureColumn& column : stream_->columns()) {
    nb::list vocabulary;
    for (const std::string& value : column.vocabulary) vocabulary.append(nb::str(value.data(), value.size()));
    out.append(nb::make_tuple(column.name, FeatureDTypeName(column.dtype), vocabulary));
  }
  return out;
}

nb::object PyFeatureStream::ReportJson() const {
  const ValidationResult* result = stream_->result();
  if (result == nullptr) return nb::none();
  const std::string json = ReportToJson(result->report);
  return nb::str(json.data(), json.size());
}

nb::object PyFeatureStream::Quarantine() const {
  if (stream_->result() == nullptr || !stream_->quarantine()) return nb::none();
  const OutputSummary& summary = *stream_->quarantine();
  nb::dict out;
  out["path"] = summary.path;
  out["rows"] = summary.rows;
  out["bytes"] = summary.bytes;
  out["sha256"] = summary.sha256;
  return out;
}

void BindFeatureStream(nb::module_& m) {
  nb::class_<PyFeatureStream>(m, "_FeatureStream")
      .def("next", &PyFeatureStream::Next)
      .def("cancel", &PyFeatureStream::Cancel)
      .def_prop_ro("columns", &PyFeatureStream::Columns)
      .def_prop_ro("clean_rows", &PyFeatureStream::clean_rows)
      .def_prop_ro("quarantined_rows", &PyFeatureStream::quarantined_rows)
      .def_prop_ro("dropped_rows", &PyFeatureStream::dropped_rows)
      .def_prop_ro("report_json", &PyFeatureStream::ReportJson)
      .def_prop_ro("quarantine", &PyFeatureStream::Quarantine);
}

}  // namespace griffin::python
