#include "server/service_core.h"

#include <cstdio>
#include <filesystem>
#include <random>

#include "api/incremental_run.h"
#include "history/history_checks.h"
#include "plan/read_options.h"
#include "store/store_records.h"
#include "report/json_writer.h"
#include "server/metrics_request.h"
#include "server/quality_score.h"
#include "server/service_json.h"
#include "util/value_parse.h"

namespace griffin::server {
namespace {

using Clock = std::chrono::steady_clock;

// Queued run-store writes; a validate call waits for room up to its timeout.
constexpr size_t kRecorderQueue = 4096;
// How long a (re)load waits for the store to number its rule version.
constexpr std::chrono::seconds kRuleNumberWait{10};

void Log(const std::string& line) {
  std::fprintf(stderr, "griffin serve: %s\n", line.c_str());
  std::fflush(stderr);
}

bool Sampled(double rate) {
  if (rate >= 1) return true;
  if (rate <= 0) return false;
  thread_local std::mt19937_64 generator{std::random_device{}()};
  return std::uniform_real_distribution<double>(0, 1)(generator) < rate;
}

Clock::time_point DeadlineIn(double seconds) {
  return Clock::now() + std::chrono::microseconds(static_cast<int64_t>(seconds * 1e6));
}

// The one-line 422 for a body whose columns do not fit the rules.
Denial SchemaDenial(const Dataset& dataset, const Report& report) {
  std::string message = "the body does not fit the rules of " + dataset.name + ": " + report.schema_errors[0].message;
  if (report.schema_errors.size() > 1) message += " (and " + std::to_string(report.schema_errors.size() - 1) + " more)";
  return {Refusal::kUnprocessable, message};
}

// A source the service reads is the service's, not the caller's: a failure
// to read it is not a bad request but 503, code source_failed.
Denial SourceDenial(const Status& status) {
  if (status.code() == StatusCode::kInputError)
    return Denial{Refusal::kUnavailable, status.message(), 1.0, "source_failed"};
  return FromStatus(status);
}

}  // namespace

ServiceCore::ServiceCore(Options options)
    : options_(std::move(options)),
      keys_(options_.config.keys),
      scores_(static_cast<size_t>(options_.config.limits.batch_cache)),
      telemetry_(static_cast<size_t>(options_.config.limits.telemetry_series)) {}

ServiceCore::~ServiceCore() { Close(); }

Result<std::unique_ptr<ServiceCore>> ServiceCore::Create(Options options) {
  if (options.auth && options.config.keys.empty()) {
    return Status::UsageError("no API keys: give --config with keys (or --no-auth for a closed network)");
  }
  if (!options.auth && !options.config.keys.empty()) {  // the keys would be dropped without a word
    return Status::UsageError("--no-auth with a config that has keys: drop --no-auth, or the keys");
  }
  std::unique_ptr<ServiceCore> core(new ServiceCore(std::move(options)));
  ServiceCore* self = core.get();
  if (!self->options_.store_uri.empty()) {
    ASSIGN_OR_RETURN(self->recorder_, RunRecorder::Open(self->options_.store_uri, kRecorderQueue));
  }
  self->alerts_ = std::make_unique<AlertDispatcher>(self->options_.store_uri, [](const std::string& line) { Log(line); });
  DatasetRegistry::Events events;
  events.loaded = [self](const Dataset& loaded, const Dataset* previous) { self->OnLoaded(loaded, previous); };
  events.refused = [self](const std::string& path, const Status& error) {
    Log("refused " + path + ", keeping the version in use: " + error.message());
    self->metrics_.CountReload(std::filesystem::path(path).filename().string(), false);
  };
  events.removed = [self](const Dataset& removed) {
    Log("removed dataset " + removed.name + " (" + removed.path + " is gone)");
    self->metrics_.SetDatasets(self->registry_->All().size());
  };
  const auto settle = std::chrono::milliseconds(static_cast<int64_t>(self->options_.config.limits.reload_settle_s * 1000));
  self->registry_ = std::make_unique<DatasetRegistry>(self->options_.rules_dir, std::move(events), settle);
  RETURN_IF_ERROR(self->registry_->LoadAll());
  self->registry_->StartWatching(
      std::chrono::milliseconds(static_cast<int64_t>(self->options_.config.limits.reload_interval_s * 1000)));
  return core;
}

void ServiceCore::OnLoaded(const Dataset& dataset, const Dataset* previous) {
  const RuleSet& rules = dataset.rules();
  if (recorder_) {
    std::pair<std::string, std::string> key{dataset.name, dataset.sha256};
    recorder_->RecordRuleVersion(dataset.name, dataset.sha256, rules.text, dataset.path, dataset.loaded_at,
                                 [this, key](int64_t number) {
                                   std::lock_guard<std::mutex> lock(rule_numbers_mutex_);
                                   rule_numbers_[key] = number;
                                   rule_number_known_.notify_all();
                                 });
    if (previous != nullptr) recorder_->DropSchemaCache(dataset.name);
    // The number shows in the log line below and in GET /v1/datasets: wait
    // for the write a while (a reload is rare; the first load is before ready).
    std::unique_lock<std::mutex> lock(rule_numbers_mutex_);
    rule_number_known_.wait_for(lock, kRuleNumberWait, [&] { return rule_numbers_.count(key) > 0; });
  }
  const std::optional<int64_t> version = VersionOf(dataset);
  Log((previous ? "reloaded dataset " : "loaded dataset ") + dataset.name + " from " + dataset.path + " (version " +
      (version ? std::to_string(*version) : std::string("not yet recorded in the store")) + ", rules sha256 " +
      dataset.sha256 + ")");
  if (previous != nullptr) metrics_.CountReload(std::filesystem::path(dataset.path).filename().string(), true);
  metrics_.SetDatasets(registry_ ? registry_->All().size() : 0);
}

std::optional<int64_t> ServiceCore::VersionOf(const Dataset& dataset) const {
  if (!recorder_) return dataset.generation;
  std::lock_guard<std::mutex> lock(rule_numbers_mutex_);
  auto found = rule_numbers_.find({dataset.name, dataset.sha256});
  if (found == rule_numbers_.end()) return std::nullopt;
  return found->second;
}

ServiceResult<Caller> ServiceCore::Authenticate(std::string_view authorization) const {
  if (!options_.auth) return Caller{nullptr, "anonymous"};
  std::optional<std::string_view> token = BearerToken(authorization);
  if (!token) return Denial{Refusal::kUnauthenticated, "missing API key: send Authorization: Bearer <key>"};
  const ApiKey* key = keys_.Find(*token);
  if (key == nullptr) return Denial{Refusal::kUnauthenticated, "invalid API key"};
  return Caller{key, key->id};
}

std::optional<Denial> ServiceCore::Admit(const Caller& caller) {
  const std::optional<RateLimit>& fallback = options_.config.limits.rate;
  const std::optional<RateLimit> rate = caller.key && caller.key->rate ? caller.key->rate : fallback;
  if (!rate) return std::nullopt;
  const double wait = limiter_.Acquire(caller.id, *rate, Clock::now());
  if (wait <= 0) return std::nullopt;
  metrics_.CountRateLimited(caller.id);
  return Denial{Refusal::kRateLimited, "rate limit of key " + caller.id + " exceeded", wait};
}

ServiceResult<std::shared_ptr<const Dataset>> ServiceCore::DatasetFor(const Caller& caller,
                                                                      const std::string& name) const {
  if (caller.key != nullptr && !KeyAllows(*caller.key, name)) {
    return Denial{Refusal::kForbidden, "key " + caller.id + " may not use dataset " + name};
  }
  std::shared_ptr<const Dataset> dataset = registry_->Find(name);
  if (dataset == nullptr) return Denial{Refusal::kNotFound, "unknown dataset " + name};
  return dataset;
}

std::shared_ptr<const Validator> ServiceCore::ValidatorFor(const Dataset& dataset) const {
  if (!dataset.uses_now) return dataset.validator;
  const int64_t now_micros = std::chrono::duration_cast<std::chrono::microseconds>(
                                 std::chrono::system_clock::now().time_since_epoch()).count();
  Result<std::shared_ptr<const Validator>> fresh = dataset.validator->WithNow(now_micros);
  return fresh.ok() ? *fresh : dataset.validator;  // compiled once already: cannot fail now
}

ValidationOptions ServiceCore::EngineOptions(int64_t max_violations, Clock::time_point deadline,
                                             std::shared_ptr<std::atomic<bool>> timed_out) const {
  ValidationOptions options;
  options.max_violations = max_violations;
  options.threads = options_.config.limits.validate_threads;
  options.collect_bad_rows = false;
  options.profile_history = true;  // the drift-checked columns, if any (JudgeHistory)
  options.on_rows = [deadline, timed_out](const RowVerdicts&) {
    if (Clock::now() <= deadline) return Status::OK();
    timed_out->store(true);
    return Status::InputError("validation ran past the request timeout");
  };
  return options;
}

std::optional<Denial> ServiceCore::Record(const Caller& caller, const Dataset& dataset, const Report& report,
                                          const std::string& json, int64_t input_bytes, const std::string& origin,
                                          RecordMode mode, std::vector<WatermarkRecord> watermarks) {
  InputLineage input;
  input.path = report.inputs.empty() ? kBodyName : report.inputs[0];
  input.size = input_bytes;
  input.rows = report.rows;
  RunRecord run;
  // The run started when the engine did: elapsed_s before now.
  const int64_t now_micros = std::chrono::duration_cast<std::chrono::microseconds>(
                                 std::chrono::system_clock::now().time_since_epoch()).count();
  const std::string started_at = FormatTimestamp(now_micros - static_cast<int64_t>(report.elapsed_s * 1e6));
  run.begin = BeginRunRequest{dataset.name, report.run_id, started_at, GRIFFIN_VERSION, dataset.sha256,
                              dataset.rules().text, dataset.path, caller.id, origin};
  run.finish = MakeFinishRequest(report, json, {input}, {});
  run.finish.watermarks = std::move(watermarks);
  const Denial behind{Refusal::kUnavailable, "the run store is behind; the run was not recorded, try again", 1.0};
  const auto deadline = DeadlineIn(options_.config.limits.request_timeout_s);
  switch (mode) {
    case RecordMode::kTry:
      (void)recorder_->TryRecord(std::move(run));
      return std::nullopt;
    case RecordMode::kQueue:
      if (!recorder_->Record(std::move(run), deadline)) return behind;
      return std::nullopt;
    case RecordMode::kAwait:
      break;
  }
  const RunRecorder::Waited waited = recorder_->RecordAndWait(std::move(run), deadline);
  if (waited.outcome == RunRecorder::Outcome::kNotQueued) return behind;
  if (waited.outcome == RunRecorder::Outcome::kFailed) {
    return Denial{Refusal::kUnavailable, "the run could not be recorded: " + waited.error, 1.0, kStoreFailedCode};
  }
  return std::nullopt;
}

ServiceResult<ValidationOutcome> ServiceCore::Finish(const Caller& caller, const Dataset& dataset, Report report,
                                                     int64_t input_bytes, const ValidateOptions& options,
                                                     std::vector<WatermarkRecord> watermarks) {
  report.run_id = NewRunId();
  report.dataset = dataset.name;
  JudgeHistory(dataset, &report);
  metrics_.CountRows(dataset.name, report.rows, report.bad_rows);
  ValidationOutcome outcome{report.run_id, ReportToJson(report), report.quality_score};
  if (options.store && recorder_) {
    // A watermark moves only once its record is written: the next increment reads past it.
    const RecordMode mode = options.await_record || !watermarks.empty() ? RecordMode::kAwait : RecordMode::kQueue;
    if (auto denied = Record(caller, dataset, report, outcome.json, input_bytes, options.origin, mode,
                             std::move(watermarks)))
      return *denied;
  }
  // Alerts go to their own thread: the answer never waits for a webhook.
  std::vector<AlertTarget> targets = options_.config.alerts;
  targets.insert(targets.end(), dataset.alerts.begin(), dataset.alerts.end());
  if (alerts_ && !targets.empty() && !alerts_->Submit(AlertJob{std::move(targets), report}))
    Log("alerts of run " + report.run_id + " were dropped: the alert queue is full");
  // A body that does not fit the rules is recorded (its report exists) but
  // answered 422, and its score is not remembered.
  if (!report.schema_errors.empty()) return SchemaDenial(dataset, report);
  if (!options.batch_hash.empty()) scores_.Put(dataset.name, options.batch_hash, BatchScoreOf(report));
  return outcome;
}

ServiceResult<ValidationOutcome> ServiceCore::Validate(const Caller& caller, const Dataset& dataset,
                                                       std::string_view body, BodyFormat format,
                                                       const ValidateOptions& options) {
  auto timed_out = std::make_shared<std::atomic<bool>>(false);
  const ValidationOptions engine =
      EngineOptions(options.max_violations, DeadlineIn(options_.config.limits.request_timeout_s), timed_out);
  const int64_t max_decoded = options_.config.limits.max_body_bytes;
  bool decoded_too_large = false;
  Result<ValidationResult> result = ValidateBody(*ValidatorFor(dataset), body, format, engine, max_decoded, &decoded_too_large);
  if (decoded_too_large) {
    return Denial{Refusal::kPayloadTooLarge,
                  "the decoded body is larger than max_body_bytes (" + std::to_string(max_decoded) + ")"};
  }
  if (timed_out->load()) {
    return Denial{Refusal::kUnavailable, "validation ran past the request timeout of " +
                                             FormatDouble(options_.config.limits.request_timeout_s) + " s", 1.0};
  }
  if (!result.ok()) return FromStatus(result.status());
  return Finish(caller, dataset, std::move(result->report), static_cast<int64_t>(body.size()), options);
}

ServiceResult<ValidationOutcome> ServiceCore::ValidateSource(const Caller& caller, const Dataset& dataset,
                                                             const ValidateOptions& options) {
  const auto source = options_.config.sources.find(dataset.name);
  if (source == options_.config.sources.end())
    return Denial{Refusal::kBadRequest, "source=true: dataset '" + dataset.name +
                                            "' names no source (sources: in the service's config)"};
  if (!dataset.rules().source.incremental_column.empty())
    return ValidateIncrement(caller, dataset, source->second, options);
  ServiceResult<Report> report = RunSource(dataset, source->second, options.max_violations, std::nullopt);
  if (!report.ok()) return report.denial();
  const int64_t input_bytes = report->input_bytes;
  return Finish(caller, dataset, std::move(report.value()), input_bytes, options);
}

ServiceResult<Report> ServiceCore::RunSource(const Dataset& dataset, const std::string& source,
                                             int64_t max_violations,
                                             std::optional<ValidationOptions::IncrementBounds> increment) {
  auto timed_out = std::make_shared<std::atomic<bool>>(false);
  ValidationOptions engine =
      EngineOptions(max_violations, DeadlineIn(options_.config.limits.request_timeout_s), timed_out);
  engine.increment = std::move(increment);
  Result<ValidationResult> result = ValidatorFor(dataset)->ValidatePaths({source}, engine);
  if (timed_out->load()) {
    return Denial{Refusal::kUnavailable, "validation ran past the request timeout of " +
                                             FormatDouble(options_.config.limits.request_timeout_s) + " s", 1.0};
  }
  if (!result.ok()) return SourceDenial(result.status());
  return std::move(result->report);
}

ServiceResult<ValidationOutcome> ServiceCore::ValidateIncrement(const Caller& caller, const Dataset& dataset,
                                                                const std::string& source,
                                                                const ValidateOptions& options) {
  std::shared_ptr<std::mutex> increment_lock = IncrementLock(dataset.name);
  std::lock_guard<std::mutex> lock(*increment_lock);  // until the next watermark is written
  // Read options do not depend on `now`: the loaded validator's plan, not a recompiled one.
  ReadOptions read = ReadOptionsFromRules(dataset.validator->plan(), ValidationOptions{}.batch_rows);
  // The watermark comes from the store (store=false too: it reads the same
  // increment and moves nothing); without one, every row.
  std::optional<WatermarkRecord> after;
  if (recorder_) {
    ServiceResult<std::string> read_store = ReadStore([&](RunStore& store) -> Result<std::string> {
      ASSIGN_OR_RETURN(after, store.Watermark(dataset.name, IncrementSource(source), read.incremental_column));
      return std::string();
    });
    if (!read_store.ok()) return read_store.denial();
  }
  Result<IncrementPlan> plan = PlanIncrementAfter(std::move(after), recorder_ != nullptr, {source}, &read);
  if (!plan.ok()) return SourceDenial(plan.status());
  ServiceResult<Report> report =
      RunSource(dataset, source, options.max_violations,
                ValidationOptions::IncrementBounds{read.increment_bounded, read.increment_after, read.increment_through});
  if (!report.ok()) return report.denial();
  DescribeIncrement(*plan, &report.value());
  const int64_t input_bytes = report->input_bytes;
  return Finish(caller, dataset, std::move(report.value()), input_bytes, options, NextWatermarks(*plan));
}

void ServiceCore::JudgeHistory(const Dataset& dataset, Report* report) {
  const Plan& plan = dataset.validator->plan();
  if (plan.history().empty()) return;
  HistoryContext context{nullptr, "the service runs with --no-store",
                         std::filesystem::path(dataset.path).parent_path().string(),
                         ReadOptionsFromRules(plan, ValidationOptions{}.batch_rows)};
  if (!recorder_) {
    EvaluateHistoryChecks(plan, context, report);
    return;
  }
  ServiceResult<std::string> judged = ReadStore([&](RunStore& store) -> Result<std::string> {
    context.store = &store;
    EvaluateHistoryChecks(plan, context, report);
    return std::string();
  });
  if (!judged.ok()) {  // the store could not be opened: judged without it, saying why
    context.store = nullptr;
    context.no_store_reason = "the run store could not be read (" + judged.denial().message + ")";
    EvaluateHistoryChecks(plan, context, report);
  }
}

std::shared_ptr<std::mutex> ServiceCore::IncrementLock(const std::string& dataset) {
  std::lock_guard<std::mutex> lock(increment_locks_mutex_);
  std::shared_ptr<std::mutex>& found = increment_locks_[dataset];
  if (!found) found = std::make_shared<std::mutex>();
  return found;
}

ServiceResult<std::string> ServiceCore::ScoreMetrics(const Caller& caller, std::string_view body) {
  Result<MetricsRequest> parsed = ParseMetricsRequest(body);
  if (!parsed.ok()) return FromStatus(parsed.status());
  const MetricsRequest& request = *parsed;
  ServiceResult<std::shared_ptr<const Dataset>> found = DatasetFor(caller, request.dataset);
  if (!found.ok()) return found.denial();
  const Dataset& dataset = *found.value();
  DataPart data;
  if (request.has_records) {
    auto timed_out = std::make_shared<std::atomic<bool>>(false);
    const ValidationOptions engine = EngineOptions(0, DeadlineIn(options_.config.limits.request_timeout_s), timed_out);
    Result<ValidationResult> result =
        ValidatorFor(dataset)->ValidateText(request.records_jsonl, InputFormat::kJsonl, "<records>", engine);
    if (timed_out->load()) return Denial{Refusal::kUnavailable, "validation ran past the request timeout", 1.0};
    if (!result.ok()) return FromStatus(result.status());
    Report& report = result->report;
    if (!report.schema_errors.empty()) return SchemaDenial(dataset, report);
    report.run_id = NewRunId();
    report.dataset = dataset.name;
    metrics_.CountRows(dataset.name, report.rows, report.bad_rows);
    data.source = DataPart::Source::kRecords;
    data.score = BatchScoreOf(report);
    if (!request.batch_hash.empty()) scores_.Put(dataset.name, request.batch_hash, data.score);
    if (recorder_ && Sampled(options_.config.metrics_sample)) {
      (void)Record(caller, dataset, report, ReportToJson(report), static_cast<int64_t>(request.records_jsonl.size()),
                   "metrics", RecordMode::kTry);
    }
  } else if (!request.batch_hash.empty()) {
    std::optional<BatchScore> remembered = scores_.Get(dataset.name, request.batch_hash);
    data.source = remembered ? DataPart::Source::kRemembered : DataPart::Source::kUnknownHash;
    if (remembered) data.score = std::move(*remembered);
    data.batch_hash = request.batch_hash;
  }
  const std::optional<TrainingRules>& training = dataset.rules().training;
  TelemetryVerdict telemetry;
  if (training) {
    std::string series = dataset.name;
    series.push_back('\0');
    series += caller.id;
    series.push_back('\0');
    series += request.run;
    telemetry = telemetry_.Check(*training, series, request.telemetry);
  }
  return MetricsAnswerJson(CombineScores(data, telemetry, training ? &*training : nullptr));
}

std::string ServiceCore::DatasetsJson(const Caller& caller) const {
  std::vector<std::shared_ptr<const Dataset>> visible;
  for (auto& dataset : registry_->All())
    if (caller.key == nullptr || KeyAllows(*caller.key, dataset->name)) visible.push_back(dataset);
  return DatasetListJson(visible, [this](const Dataset& dataset) { return VersionOf(dataset); });
}

ServiceResult<std::string> ServiceCore::RunsJson(const Caller& caller, const std::string& dataset, int limit) {
  if (!MayUse(caller, dataset)) return Denial{Refusal::kForbidden, "key " + caller.id + " may not use dataset " + dataset};
  return ReadStore([&](RunStore& store) -> Result<std::string> {
    ASSIGN_OR_RETURN(std::vector<RunSummary> runs, store.History(dataset, limit));
    return RunListJson(dataset, runs);
  });
}

bool ServiceCore::MayUse(const Caller& caller, const std::string& dataset) const {
  return caller.key == nullptr || KeyAllows(*caller.key, dataset);
}

ServiceResult<std::string> ServiceCore::ReadStore(const std::function<Result<std::string>(RunStore&)>& read) {
  if (options_.store_uri.empty()) return Denial{Refusal::kNotFound, "no run store: the server runs with --no-store"};
  std::lock_guard<std::mutex> lock(reader_mutex_);
  if (reader_ == nullptr) {
    Result<std::unique_ptr<RunStore>> opened = OpenRunStore(options_.store_uri);
    if (!opened.ok()) return FromStatus(opened.status());
    reader_ = std::move(*opened);
  }
  Result<std::string> answer = read(*reader_);
  if (!answer.ok()) return FromStatus(answer.status());
  return std::move(answer).value();
}

std::string ServiceCore::PrometheusText() {
  if (!recorder_) return metrics_.Render(0, 0, 0);
  return metrics_.Render(recorder_->written(), recorder_->failed(), recorder_->dropped());
}

std::string ServiceCore::RecorderSummary() const {
  if (!recorder_) return "runs: not recorded";
  return "runs: " + std::to_string(recorder_->written()) + " written, " + std::to_string(recorder_->failed()) +
         " failed, " + std::to_string(recorder_->dropped()) + " dropped";
}

void ServiceCore::Close() {
  if (registry_) registry_->StopWatching();
  if (recorder_) recorder_->Close();
  if (alerts_) {
    alerts_->Close(std::chrono::steady_clock::now() +
                   std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                       std::chrono::duration<double>(options_.config.limits.shutdown_grace_s)));
  }
}

}  // namespace griffin::server
