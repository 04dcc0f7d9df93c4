// griffin._griffin: the nanobind extension under the `griffin` package. It is
// thin: the Python layer (griffin/__init__.py) turns frames into Arrow
// streams and results into Report objects. Every run releases the GIL.
//
// Arrow data comes in as an ArrowArrayStream PyCapsule (the Arrow PyCapsule
// interface, "arrow_array_stream"): imported with arrow::ImportRecordBatchReader,
// it is read in place (no buffer copies). libarrow_python is not used.
#include <cstring>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <arrow/c/abi.h>
#include <arrow/c/bridge.h>
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/pair.h>

#include "api/recorded_run.h"
#include "api/validator.h"
#include "plan/read_options.h"
#include "io/arrow_source.h"
#include "profile/drift_report.h"
#include "profile/profile_json.h"
#include "profile/profiler.h"
#include "report/json_writer.h"
#include "store/store_records.h"
#include "py_arrow.h"
#include "py_delta.h"
#include "py_errors.h"
#include "py_feature_stream.h"
#include "py_hash.h"
#include "py_objects.h"
#include "py_sql_plan.h"

namespace nb = nanobind;
using griffin::Result;
using griffin::Status;
using griffin::StatusCode;
using griffin::python::GriffinErrorCpp;
using griffin::python::InputErrorCpp;
using griffin::python::Raise;
using griffin::python::ValueOrRaise;
using griffin::python::RuleErrorCpp;

namespace {

// One run's outcome, as the Python layer reads it.
class PyResult {
 public:
  explicit PyResult(griffin::ValidationResult result) : result_(std::move(result)) {}
  // The CLI's JSON report, rendered on first use (most callers read only the
  // score and counts); called with the GIL held, so the cache needs no lock.
  const std::string& json() const {
    if (!json_) json_ = griffin::ReportToJson(result_.report);
    return *json_;
  }
  griffin::Report* mutable_report() { return &result_.report; }
  void forget_json() { json_.reset(); }
  int64_t rows() const { return result_.report.rows; }
  int64_t bad_rows() const { return result_.report.bad_rows; }
  double quality_score() const { return result_.report.quality_score; }
  bool passed() const { return result_.report.passed; }
  bool pushdown() const { return result_.pushdown; }  // no per-row verdicts
  // The bad rows' 0-based indices (int64, ascending) as a new numpy array.
  nb::ndarray<nb::numpy, int64_t, nb::ndim<1>> bad_row_indices() const { return Int64Array(result_.bad_row_indices); }
  // bad_row_indices()[i]'s errors are entries [offsets[i], offsets[i + 1]) of
  // bad_error_checks() / bad_error_messages(); messages and raw text are bytes
  // (UTF-8 unless the input was not).
  nb::ndarray<nb::numpy, int64_t, nb::ndim<1>> bad_error_offsets() const { return Int64Array(result_.bad_error_offsets); }
  std::vector<std::string> bad_error_checks() const {
    std::vector<std::string> checks;
    checks.reserve(result_.bad_errors.size());
    for (const griffin::RowError& error : result_.bad_errors) checks.push_back(error.check);
    return checks;
  }
  nb::list bad_error_messages() const {
    nb::list messages;
    for (const griffin::RowError& error : result_.bad_errors)
      messages.append(nb::bytes(error.message.data(), error.message.size()));
    return messages;
  }
  nb::ndarray<nb::numpy, int64_t, nb::ndim<1>> malformed_rows() const { return Int64Array(result_.malformed_rows); }
  nb::list malformed_raw() const {
    nb::list raw;
    for (const std::string& text : result_.malformed_raw) raw.append(nb::bytes(text.data(), text.size()));
    return raw;
  }

 private:
  // A new numpy array holding a copy of `values`.
  static nb::ndarray<nb::numpy, int64_t, nb::ndim<1>> Int64Array(const std::vector<int64_t>& values) {
    auto* copy = new std::vector<int64_t>(values);
    nb::capsule owner(copy, [](void* p) noexcept { delete static_cast<std::vector<int64_t>*>(p); });
    return nb::ndarray<nb::numpy, int64_t, nb::ndim<1>>(copy->data(), {copy->size()}, owner);
  }

  griffin::ValidationResult result_;
  mutable std::optional<std::string> json_;
};

// Validator.validate(..., store=URI): a run recorded in a run store as
// griffin validate records it (api/recorded_run.h). Begun before the run,
// finished (or aborted) after it; one not ended is aborted when collected.
class PyRecordedRun {
 public:
  explicit PyRecordedRun(std::unique_ptr<griffin::RecordedRun> run) : run_(std::move(run)) {}
  void Apply(griffin::ValidationOptions* options) const { run_->Apply(options); }
  // Records `result`'s report, which gets the run id (and its increment).
  void Finish(PyResult& result) {
    Status finished;
    {
      nb::gil_scoped_release release;
      finished = run_->Finish(result.mutable_report());
    }
    result.forget_json();
    if (!finished.ok()) Raise(finished);
  }
  void Abort(const std::string& why) { run_->Abort(why); }
  const std::string& run_id() const { return run_->run_id(); }

 private:
  std::unique_ptr<griffin::RecordedRun> run_;
};

class PyValidator {
 public:
  static PyValidator FromFile(const std::string& path) { return PyValidator(ValueOrRaise(griffin::Validator::FromFile(path))); }
  static PyValidator FromText(const std::string& text, const std::string& name) {
    return PyValidator(ValueOrRaise(griffin::Validator::FromText(text, name)));
  }

  // `mode`: "scan", "pushdown" (docs/sql.md; the CLI's code path, so the
  // report is `griffin validate --mode pushdown`'s), or "" for source.mode.
  // `recording`: the run's record (BeginRun), or None.
  PyResult ValidatePaths(const std::vector<std::string>& paths, int64_t max_violations, int threads,
                         int64_t batch_rows, bool collect_bad_rows, const std::string& mode,
                         const PyRecordedRun* recording) const {
    griffin::ValidationOptions options = Options(max_violations, threads, batch_rows, collect_bad_rows, recording);
    options.mode = mode;
    Result<griffin::ValidationResult> result = Status::Internal("not run");
    {
      nb::gil_scoped_release release;
      result = validator_->ValidatePaths(paths, options);
    }
    return PyResult(ValueOrRaise(std::move(result)));
  }

  // `row_offset`: the first row's id (a part of a larger input, e.g. a Spark
  // partition): the report and bad_row_indices number rows from it.
  // `judge_history`: false for a part, whose drift and anomaly checks the
  // whole's report judges (they stay "not evaluated" here).
  PyResult ValidateStream(nb::handle capsule, const std::string& name, int64_t max_violations, int threads,
                          int64_t batch_rows, bool collect_bad_rows, int64_t row_offset, const std::string& mode,
                          const PyRecordedRun* recording, bool judge_history) const {
    std::shared_ptr<arrow::RecordBatchReader> reader = griffin::python::ImportStreamCapsule(capsule, name);
    griffin::ValidationOptions options =
        judge_history ? Options(max_violations, threads, batch_rows, collect_bad_rows, recording)
                      : Options(max_violations, threads, batch_rows, collect_bad_rows);
    options.row_offset = row_offset;
    options.mode = mode;  // only "scan" runs; "pushdown" is refused
    Result<griffin::ValidationResult> result = Status::Internal("not run");
    {
      nb::gil_scoped_release release;
      result = validator_->ValidateReader(std::move(reader), name, options);
    }
    return PyResult(ValueOrRaise(std::move(result)));
  }

  // Validator.partial(): the partial state (src/exec/partial_state.h) of an
  // Arrow stream whose first row has id `row_offset`, as bytes.
  nb::bytes Partial(nb::handle capsule, const std::string& name, int64_t row_offset, int64_t max_violations,
                    int threads, int64_t batch_rows) const {
    const std::string state = RunPartial(capsule, name, row_offset, max_violations, threads, batch_rows, 0, nullptr);
    return nb::bytes(state.data(), state.size());
  }

  // Validator.partial(..., key_shards=N): (state without unique keys, [N key shard blobs]).
  nb::tuple PartialSharded(nb::handle capsule, const std::string& name, int64_t row_offset, int64_t max_violations,
                           int threads, int64_t batch_rows, int key_shards) const {
    std::vector<std::string> shards;
    const std::string state =
        RunPartial(capsule, name, row_offset, max_violations, threads, batch_rows, key_shards, &shards);
    nb::list blobs;
    for (const std::string& shard : shards) blobs.append(nb::bytes(shard.data(), shard.size()));
    return nb::make_tuple(nb::bytes(state.data(), state.size()), blobs);
  }

  // How many `unique` checks (column and row) the rules hold: their keys are what a merge moves.
  int unique_checks() const {
    int count = 0;
    for (const griffin::CheckInfo& check : validator_->plan().checks()) count += check.check == "unique";
    return count;
  }

  // The columns the rules read (Plan::ReferencedColumns): all a run needs of its input.
  std::vector<std::string> referenced_columns() const { return validator_->plan().ReferencedColumns(); }

  // Validator.merge_key_shard(): one shard's blobs of every part -> its duplicates.
  nb::bytes MergeKeyShard(const std::vector<nb::bytes>& blobs, const std::vector<std::string>& names) const {
    std::vector<std::string_view> views;
    for (const nb::bytes& blob : blobs) views.emplace_back(blob.c_str(), blob.size());
    Result<std::string> merged = Status::Internal("not run");
    {
      nb::gil_scoped_release release;
      merged = validator_->MergeKeyShard(views, names);
    }
    const std::string bytes = ValueOrRaise(std::move(merged));
    return nb::bytes(bytes.data(), bytes.size());
  }

  // Validator.merge_partials(): the report of the parts' states (no per-row
  // verdicts), and the rows that became violations only at the merge, as
  // (row ids, check names, messages).
  // `key_duplicates`: merge_key_shard()'s outputs when the states' keys were sharded.
  nb::tuple MergePartials(const std::vector<nb::bytes>& states, const std::vector<std::string>& names,
                          const std::vector<nb::bytes>& key_duplicates) const {
    std::vector<std::string_view> views, duplicates;
    for (const nb::bytes& state : states) views.emplace_back(state.c_str(), state.size());
    for (const nb::bytes& blob : key_duplicates) duplicates.emplace_back(blob.c_str(), blob.size());
    Result<griffin::Report> report = Status::Internal("not run");
    std::vector<griffin::MergedRowError> row_errors;
    {
      nb::gil_scoped_release release;
      report = validator_->MergePartials(views, names, &row_errors, duplicates);
    }
    griffin::ValidationResult result;
    result.report = ValueOrRaise(std::move(report));
    std::vector<int64_t> rows;
    nb::list checks, messages;
    for (const griffin::MergedRowError& e : row_errors) {
      rows.push_back(e.row);
      checks.append(nb::str(e.error.check.c_str(), e.error.check.size()));
      messages.append(nb::str(e.error.message.c_str(), e.error.message.size()));
    }
    return nb::make_tuple(PyResult(std::move(result)), rows, checks, messages);
  }

  // Validator.validate(..., store=): begins a run in the run store at
  // `store_uri` (inputs: the paths the run reads, [] for in-memory data).
  PyRecordedRun BeginRun(const std::string& store_uri, const std::vector<std::string>& inputs,
                         const std::string& origin, bool profile_every_column) const {
    Result<std::unique_ptr<griffin::RecordedRun>> begun = Status::Internal("not run");
    {
      nb::gil_scoped_release release;
      begun = griffin::RecordedRun::Begin(validator_, store_uri, inputs, origin, profile_every_column);
    }
    return PyRecordedRun(ValueOrRaise(std::move(begun)));
  }

  // griffin.spark's .save(): records `result` (a finished run of these rules,
  // e.g. merged partial states) in the run store at `store_uri` as the CLI
  // records a run (griffin history/show list it), with `inputs` as its input
  // lineage (rows per input) and `origin` (spark). Returns (run_id, version).
  nb::tuple RecordRun(PyResult& result, const std::string& store_uri, const std::vector<std::string>& inputs,
                      const std::vector<int64_t>& input_rows, const std::string& origin) const {
    Result<griffin::RunTicket> recorded = Status::Internal("not run");
    {
      nb::gil_scoped_release release;
      recorded = griffin::RecordFinishedRun(store_uri, validator_->rules(), result.mutable_report(), inputs,
                                            input_rows, origin);
    }
    const griffin::RunTicket ticket = ValueOrRaise(std::move(recorded));
    result.forget_json();
    return nb::make_tuple(ticket.run_id, ticket.version);
  }

  // Validator.merge_states(): the parts' states merged into one, as bytes.
  nb::bytes MergeStates(const std::vector<nb::bytes>& states, const std::vector<std::string>& names) const {
    std::vector<std::string_view> views;
    for (const nb::bytes& state : states) views.emplace_back(state.c_str(), state.size());
    Result<std::string> merged = Status::Internal("not run");
    {
      nb::gil_scoped_release release;
      merged = validator_->MergeStates(views, names);
    }
    const std::string bytes = ValueOrRaise(std::move(merged));
    return nb::bytes(bytes.data(), bytes.size());
  }

  // griffin.jax.batches' engine side: `source` is a list of paths or an
  // arrow_array_stream capsule; `options` as PyFeatureStream::Open documents.
  griffin::python::PyFeatureStream FeatureStream(nb::handle source, const std::string& name,
                                                 const nb::dict& options) const {
    return griffin::python::PyFeatureStream::Open(validator_, source, name, options);
  }

  static PyValidator Wrap(std::shared_ptr<const griffin::Validator> v) { return PyValidator(std::move(v)); }
  const std::shared_ptr<const griffin::Validator>& validator() const { return validator_; }

  const std::string& dataset() const { return validator_->rules().dataset; }
  const std::string& rules_sha256() const { return validator_->rules().sha256; }
  // The rule file's `source:` section, for readers in the Python layer:
  // {"format": str | None, "delimiter": str | None, "header": bool, "quote": str, "null_values": [str]}.
  nb::dict source() const {
    const griffin::SourceOptions& source = validator_->rules().source;
    nb::dict out;
    out["format"] = source.format ? nb::object(nb::str(source.format->c_str())) : nb::none();
    out["delimiter"] = source.delimiter ? nb::object(nb::str(std::string(1, *source.delimiter).c_str())) : nb::none();
    out["header"] = source.header;
    out["quote"] = nb::str(std::string(1, source.quote).c_str());
    nb::list nulls;
    for (const std::string& value : source.null_values) nulls.append(nb::str(value.c_str(), value.size()));
    out["null_values"] = nulls;
    return out;
  }

 private:
  std::string RunPartial(nb::handle capsule, const std::string& name, int64_t row_offset, int64_t max_violations,
                         int threads, int64_t batch_rows, int key_shards, std::vector<std::string>* shards) const {
    std::shared_ptr<arrow::RecordBatchReader> reader = griffin::python::ImportStreamCapsule(capsule, name);
    griffin::ValidationOptions options = Options(max_violations, threads, batch_rows, false);
    std::string state;
    options.row_offset = row_offset;
    options.partial_state = &state;
    options.key_shards = key_shards;
    options.partial_key_shards = shards;
    Status status;
    {
      nb::gil_scoped_release release;
      status = validator_->ValidateReader(std::move(reader), name, options).status();
    }
    if (!status.ok()) Raise(status);
    return state;
  }

  explicit PyValidator(std::shared_ptr<const griffin::Validator> v)
      : validator_(std::move(v)),
        no_store_(std::make_shared<griffin::HistoryContext>(griffin::HistoryContext{
            nullptr, "no store was given (Validator.validate's store=)",
            std::filesystem::path(validator_->rules().path).parent_path().string(),
            griffin::ReadOptionsFromRules(validator_->plan(), griffin::ValidationOptions{}.batch_rows)})) {}
  static griffin::ValidationOptions Options(int64_t max_violations, int threads, int64_t batch_rows,
                                            bool collect_bad_rows) {
    griffin::ValidationOptions options;
    options.max_violations = max_violations;
    options.threads = threads;
    options.batch_rows = batch_rows;
    options.collect_bad_rows = collect_bad_rows;
    return options;
  }
  // A whole run's options: its history checks judged as griffin validate
  // judges them, against the recorded run's store, or with none (as --no-store).
  griffin::ValidationOptions Options(int64_t max_violations, int threads, int64_t batch_rows, bool collect_bad_rows,
                                     const PyRecordedRun* recording) const {
    griffin::ValidationOptions options = Options(max_violations, threads, batch_rows, collect_bad_rows);
    if (recording != nullptr) recording->Apply(&options);
    else options.history = no_store_.get();
    return options;
  }
  std::shared_ptr<const griffin::Validator> validator_;
  std::shared_ptr<const griffin::HistoryContext> no_store_;  // shared by the copies of this wrapper
};

// Validator._compiled.sql_plan(): griffin.spark's SQL mode (py_sql_plan.h).
class PySqlPlan {
 public:
  static PySqlPlan Compile(const PyValidator& validator, const std::string& dialect, const std::string& from,
                           const std::map<std::string, std::string>& stored, int64_t max_violations,
                           bool windowless_fallback) {
    return PySqlPlan(ValueOrRaise(griffin::python::SqlPlan::Compile(validator.validator(), dialect, from, stored,
                                                                    max_violations, windowless_fallback)));
  }
  explicit PySqlPlan(std::shared_ptr<const griffin::python::SqlPlan> plan) : plan_(std::move(plan)) {}
  const std::string& aggregate_sql() const { return plan_->query().aggregate_sql; }
  const std::string& fallback_sql() const { return plan_->query().fallback_sql; }
  // One dict per check, in the report's order: name, pushed, reason, sample_sql.
  nb::list placements() const {
    nb::list out;
    for (const griffin::sql::CheckPlacement& placement : plan_->query().placements) {
      nb::dict item;
      item["check"] = plan_->plan().checks()[placement.check_index].name;
      item["index"] = placement.check_index;
      item["pushed"] = placement.pushed;
      item["reason"] = placement.reason;
      item["sample_sql"] = placement.sample_sql;
      out.append(item);
    }
    return out;
  }
  // The fallback checks' validator (with _griffin_pushed_bad), or None.
  nb::object fallback() const {
    if (!plan_->fallback()) return nb::none();
    return nb::cast(PyValidator::Wrap(plan_->fallback()));
  }
  std::vector<int> sample_checks(nb::handle aggregate) const {
    const auto batches = ReadAll(aggregate, "the aggregate");
    return ValueOrRaise(plan_->SampleChecks(batches));
  }
  PyResult report(nb::handle aggregate, const std::vector<std::pair<int, nb::handle>>& samples,
                  nb::handle fallback) const {
    const auto aggregate_batches = ReadAll(aggregate, "the aggregate");
    std::vector<std::pair<int, griffin::python::Batches>> sample_batches;
    for (const auto& [index, capsule] : samples) sample_batches.emplace_back(index, ReadAll(capsule, "a sample"));
    const griffin::Report* fallback_report =
        fallback.is_none() ? nullptr : nb::cast<PyResult&>(fallback).mutable_report();
    griffin::ValidationResult result;
    result.report = ValueOrRaise(plan_->Assemble(aggregate_batches, sample_batches, fallback_report));
    return PyResult(std::move(result));
  }

 private:
  static griffin::python::Batches ReadAll(nb::handle capsule, const std::string& name) {
    auto reader = griffin::python::ImportStreamCapsule(capsule, name);
    griffin::python::Batches batches;
    while (true) {
      auto next = reader->Next();
      if (!next.ok()) throw InputErrorCpp(name + ": " + next.status().message());
      if (!*next) break;
      batches.push_back(std::move(*next));
    }
    return batches;
  }
  std::shared_ptr<const griffin::python::SqlPlan> plan_;
};

// griffin.profile(): the JSON profile (docs/profile.md) of files or of an
// arrow_array_stream capsule, computed with the GIL released.
std::string ProfilePaths(const std::vector<std::string>& paths, int threads, int64_t batch_rows) {
  griffin::ReadOptions options;
  options.batch_rows = batch_rows;
  Result<griffin::TableProfile> profile = Status::Internal("not run");
  {
    nb::gil_scoped_release release;
    profile = griffin::ProfilePaths(paths, options, griffin::ProfileOptions{threads});
  }
  return griffin::ProfileToJson(ValueOrRaise(std::move(profile)), paths);
}

std::string ProfileStream(nb::handle capsule, const std::string& name, int threads, int64_t batch_rows) {
  std::shared_ptr<arrow::RecordBatchReader> reader = griffin::python::ImportStreamCapsule(capsule, name);
  griffin::ReadOptions options;
  options.batch_rows = batch_rows;
  Result<griffin::TableProfile> profile = Status::Internal("not run");
  {
    nb::gil_scoped_release release;
    auto source = griffin::OpenRecordBatchReaderSource(std::move(reader), name, options);
    profile = griffin::ProfileSource(*source, griffin::ProfileOptions{threads});
  }
  return griffin::ProfileToJson(ValueOrRaise(std::move(profile)), {name});
}

// griffin.drift(): the JSON drift report (docs/profile.md) of two paths, each
// data or a profile state.
std::string DriftPaths(const std::string& baseline, const std::string& current, double max, int threads) {
  griffin::ReadOptions options;
  Result<griffin::DriftReport> report = Status::Internal("not run");
  {
    nb::gil_scoped_release release;
    report = [&]() -> Result<griffin::DriftReport> {
      const griffin::ProfileOptions profile_options{threads};
      ASSIGN_OR_RETURN(griffin::TableProfile before, griffin::ProfileOrState(baseline, options, profile_options));
      ASSIGN_OR_RETURN(griffin::TableProfile after, griffin::ProfileOrState(current, options, profile_options));
      griffin::DriftReport out;
      out.baseline = baseline;
      out.current = current;
      if (max >= 0) out.max = max;
      out.columns = griffin::CompareProfiles(before, after);
      return out;
    }();
  }
  return griffin::DriftToJson(ValueOrRaise(std::move(report)));
}

}  // namespace

NB_MODULE(_griffin, m) {
  m.doc() = "Griffin's engine (use the `griffin` package, not this module).";
  m.attr("__version__") = GRIFFIN_VERSION;
  // Row violations a report lists per check unless told (cli-and-report-v1).
  m.attr("DEFAULT_MAX_VIOLATIONS") = griffin::kDefaultMaxViolations;
  nb::exception<GriffinErrorCpp> griffin_error(m, "GriffinError");
  nb::exception<RuleErrorCpp>(m, "RuleError", griffin_error);
  nb::exception<InputErrorCpp>(m, "InputError", griffin_error);

  nb::class_<PyResult>(m, "_Result")
      .def_prop_ro("json", &PyResult::json)
      .def_prop_ro("rows", &PyResult::rows)
      .def_prop_ro("bad_rows", &PyResult::bad_rows)
      .def_prop_ro("quality_score", &PyResult::quality_score)
      .def_prop_ro("passed", &PyResult::passed)
      .def_prop_ro("pushdown", &PyResult::pushdown)
      .def("bad_row_indices", &PyResult::bad_row_indices)
      .def("bad_error_offsets", &PyResult::bad_error_offsets)
      .def("bad_error_checks", &PyResult::bad_error_checks)
      .def("bad_error_messages", &PyResult::bad_error_messages)
      .def("malformed_rows", &PyResult::malformed_rows)
      .def("malformed_raw", &PyResult::malformed_raw);

  m.def("profile_paths", &ProfilePaths, nb::arg("paths"), nb::arg("threads"), nb::arg("batch_rows"));
  m.def("profile_stream", &ProfileStream, nb::arg("capsule"), nb::arg("name"), nb::arg("threads"),
        nb::arg("batch_rows"));

  m.def("drift_paths", &DriftPaths, nb::arg("baseline"), nb::arg("current"), nb::arg("max"), nb::arg("threads"));

  griffin::python::BindFeatureStream(m);
  griffin::python::BindHash(m);
  griffin::python::BindObjectStores(m);
  griffin::python::BindDelta(m);

  nb::class_<PySqlPlan>(m, "_SqlPlan")
      .def_prop_ro("aggregate_sql", &PySqlPlan::aggregate_sql)
      .def_prop_ro("fallback_sql", &PySqlPlan::fallback_sql)
      .def_prop_ro("placements", &PySqlPlan::placements)
      .def("fallback", &PySqlPlan::fallback)
      .def("sample_checks", &PySqlPlan::sample_checks, nb::arg("aggregate"))
      .def("report", &PySqlPlan::report, nb::arg("aggregate"), nb::arg("samples"), nb::arg("fallback").none());

  m.attr("DEFAULT_STORE_URI") = griffin::DefaultStoreUri();  // griffin validate's, in the working directory
  nb::class_<PyRecordedRun>(m, "_RecordedRun")
      .def("finish", &PyRecordedRun::Finish, nb::arg("result"))
      .def("abort", &PyRecordedRun::Abort, nb::arg("why"))
      .def_prop_ro("run_id", &PyRecordedRun::run_id);

  nb::class_<PyValidator>(m, "_Validator")
      .def_static("from_file", &PyValidator::FromFile, nb::arg("path"))
      .def_static("from_text", &PyValidator::FromText, nb::arg("text"), nb::arg("name"))
      .def("validate_paths", &PyValidator::ValidatePaths, nb::arg("paths"), nb::arg("max_violations"),
           nb::arg("threads"), nb::arg("batch_rows"), nb::arg("collect_bad_rows"), nb::arg("mode") = "scan",
           nb::arg("recording").none() = nb::none())
      .def("validate_stream", &PyValidator::ValidateStream, nb::arg("capsule"), nb::arg("name"),
           nb::arg("max_violations"), nb::arg("threads"), nb::arg("batch_rows"), nb::arg("collect_bad_rows"),
           nb::arg("row_offset") = 0, nb::arg("mode") = "scan", nb::arg("recording").none() = nb::none(),
           nb::arg("judge_history") = true)
      .def("begin_run", &PyValidator::BeginRun, nb::arg("store_uri"), nb::arg("inputs"), nb::arg("origin"),
           nb::arg("profile_every_column") = false)
      .def("record_run", &PyValidator::RecordRun, nb::arg("result"), nb::arg("store_uri"), nb::arg("inputs"),
           nb::arg("input_rows"), nb::arg("origin"))
      .def("partial", &PyValidator::Partial, nb::arg("capsule"), nb::arg("name"), nb::arg("row_offset"),
           nb::arg("max_violations"), nb::arg("threads"), nb::arg("batch_rows"))
      .def("partial_sharded", &PyValidator::PartialSharded, nb::arg("capsule"), nb::arg("name"), nb::arg("row_offset"),
           nb::arg("max_violations"), nb::arg("threads"), nb::arg("batch_rows"), nb::arg("key_shards"))
      .def("merge_key_shard", &PyValidator::MergeKeyShard, nb::arg("blobs"), nb::arg("names"))
      .def("merge_partials", &PyValidator::MergePartials, nb::arg("states"), nb::arg("names"),
           nb::arg("key_duplicates") = std::vector<nb::bytes>{})
      .def("merge_states", &PyValidator::MergeStates, nb::arg("states"), nb::arg("names"))
      .def("feature_stream", &PyValidator::FeatureStream, nb::arg("source"), nb::arg("name"), nb::arg("options"))
      .def("sql_plan", &PySqlPlan::Compile, nb::arg("dialect"), nb::arg("from_sql"), nb::arg("stored"),
           nb::arg("max_violations"), nb::arg("windowless_fallback"))
      .def_prop_ro("dataset", &PyValidator::dataset)
      .def_prop_ro("rules_sha256", &PyValidator::rules_sha256)
      .def_prop_ro("unique_checks", &PyValidator::unique_checks)
      .def_prop_ro("referenced_columns", &PyValidator::referenced_columns)
      .def_prop_ro("source", &PyValidator::source);
}
