// What the HTTP API and the Arrow Flight service share: the datasets and
// their hot reload, API keys, rate limits, the batch-score memory, the
// telemetry history, the run recorder and the metrics. The edges
// (http_service.cc, flight_service.cc) parse their protocol, call these,
// and turn a Denial into an HTTP status or a Flight status. Thread-safe.
//
//   ASSIGN_OR_RETURN(auto core, ServiceCore::Create(options));
//   ServiceResult<Caller> caller = core->Authenticate(authorization_header);
//   ... core->Admit(*caller), core->DatasetFor(*caller, name), core->Validate(...)
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "alerts/alert_dispatcher.h"
#include "report/report.h"
#include "server/api_keys.h"
#include "server/batch_scores.h"
#include "server/body_validation.h"
#include "server/dataset_registry.h"
#include "server/rate_limiter.h"
#include "server/run_recorder.h"
#include "server/service_config.h"
#include "server/service_metrics.h"
#include "server/service_status.h"
#include "server/telemetry.h"

namespace griffin::server {

// Who is calling: a configured key, or "anonymous" when auth is off.
struct Caller {
  const ApiKey* key = nullptr;
  std::string id;
};

// A finished validation to answer and record.
struct ValidationOutcome {
  std::string run_id;
  std::string json;       // the report (cli-and-report-v1), with run_id
  double quality_score = 1.0;
};

class ServiceCore {
 public:
  struct Options {
    std::string rules_dir;
    std::string store_uri;   // empty: record nothing (--no-store)
    ServiceConfig config;
    bool auth = true;        // false: --no-auth, every caller is "anonymous"
  };
  // Loads every rule file (a broken one is an error naming it), opens the store.
  static Result<std::unique_ptr<ServiceCore>> Create(Options options);
  ~ServiceCore();

  ServiceResult<Caller> Authenticate(std::string_view authorization) const;
  // The caller's rate limit: a kRateLimited denial when its bucket is empty.
  std::optional<Denial> Admit(const Caller& caller);
  // kNotFound for an unknown dataset, kForbidden outside the key's datasets.
  ServiceResult<std::shared_ptr<const Dataset>> DatasetFor(const Caller& caller, const std::string& name) const;

  struct ValidateOptions {
    int64_t max_violations = kDefaultMaxViolations;
    bool store = true;         // record the run
    // The caller said store=true: answer only once the run is written, and
    // refuse (503, code store_failed) when writing it failed. Otherwise the
    // run is queued and written in the background.
    bool await_record = false;
    std::string batch_hash;    // remember the score under this hash ("" : no)
    std::string origin = "http";
  };
  // Validates a request body. kUnprocessable when its columns do not fit the
  // rules (schema errors), kUnavailable when it ran past request_timeout_s.
  ServiceResult<ValidationOutcome> Validate(const Caller& caller, const Dataset& dataset, std::string_view body,
                                            BodyFormat format, const ValidateOptions& options);
  // Reads and validates the source the config names for the dataset
  // (`sources:`), as `griffin validate URI` would: the whole table, or with
  // rules that read increments (source.incremental) the rows past the
  // watermark the dataset's last recorded run left in the run store (every
  // row without a store). A recorded increment is answered once its record,
  // and with it the next watermark, is written; increments of one dataset run
  // one at a time, so two requests never read the same rows. A run that is
  // not recorded (store=false) reads the increment and moves nothing. 400 when
  // it names no source; 503 (code source_failed) when the source cannot be
  // read (refused connection, credentials, missing table), with the URI's
  // password as ***; 422 for schema errors.
  ServiceResult<ValidationOutcome> ValidateSource(const Caller& caller, const Dataset& dataset,
                                                  const ValidateOptions& options);
  // Finishes a validation run elsewhere (Flight): the schema-error check,
  // counting, the batch-score memory and the record, as Validate does.
  // `watermarks`: what the record moves (an increment's, written in its
  // transaction); when there are any the answer waits for the write.
  ServiceResult<ValidationOutcome> Finish(const Caller& caller, const Dataset& dataset, Report report,
                                          int64_t input_bytes, const ValidateOptions& options,
                                          std::vector<WatermarkRecord> watermarks = {});
  // POST /metrics: the answer's JSON (quality_score.h).
  ServiceResult<std::string> ScoreMetrics(const Caller& caller, std::string_view body);

  // GET /v1/datasets and GET /v1/runs, as JSON.
  std::string DatasetsJson(const Caller& caller) const;
  ServiceResult<std::string> RunsJson(const Caller& caller, const std::string& dataset, int limit);
  // Runs `read` on the store's reader connection (opened on first use; one
  // read at a time). kNotFound without a store (--no-store).
  ServiceResult<std::string> ReadStore(const std::function<Result<std::string>(RunStore&)>& read);
  // Whether `caller` may see `dataset` (every dataset when auth is off).
  bool MayUse(const Caller& caller, const std::string& dataset) const;
  std::string PrometheusText();
  // "runs: W written, F failed, D dropped" ("runs: not recorded" without a store).
  std::string RecorderSummary() const;
  // The store as logs may show it (no password), or "off".
  std::string StoreDescription() const { return recorder_ ? recorder_->Describe() : "off"; }

  // The dataset's validator for a request starting now: its rules compiled
  // with this moment as `now` when they use `now`, else the loaded one.
  std::shared_ptr<const Validator> ValidatorFor(const Dataset& dataset) const;

  // The engine options of a request that must end by `deadline`; sets
  // *timed_out when it stopped the run for that.
  ValidationOptions EngineOptions(int64_t max_violations, std::chrono::steady_clock::time_point deadline,
                                  std::shared_ptr<std::atomic<bool>> timed_out) const;

  // Graceful shutdown, last step: stop reloading, write every queued run.
  void Close();

  const ServiceConfig& config() const { return options_.config; }
  ServiceMetrics& metrics() { return metrics_; }
  DatasetRegistry& registry() { return *registry_; }
  bool recording() const { return recorder_ != nullptr; }

 private:
  explicit ServiceCore(Options options);
  void OnLoaded(const Dataset& dataset, const Dataset* previous);
  // The dataset's version as GET /v1/datasets and the log show it: the run
  // store's number of its rule file (as `griffin rules` lists it; nullopt
  // until the store has recorded it), or without a store the generation.
  std::optional<int64_t> VersionOf(const Dataset& dataset) const;
  // Judges the dataset's history checks (drift, anomaly) in `report` as
  // griffin validate does: against the run store (runs recorded so far), or,
  // without one, as --no-store; a store that cannot be read is said in each
  // check's message, never a failed request.
  void JudgeHistory(const Dataset& dataset, Report* report);
  // kTry: queue if there is room now (sampled runs); kQueue: wait for room up
  // to the request timeout; kAwait: also wait for the write. A denial when the
  // run was not queued (kQueue, kAwait) or its write failed (kAwait).
  enum class RecordMode { kTry, kQueue, kAwait };
  std::optional<Denial> Record(const Caller& caller, const Dataset& dataset, const Report& report,
                               const std::string& json, int64_t input_bytes, const std::string& origin,
                               RecordMode mode, std::vector<WatermarkRecord> watermarks = {});
  // Reads and validates the dataset's source within the request timeout;
  // `increment`: the bounds of an incremental run.
  ServiceResult<Report> RunSource(const Dataset& dataset, const std::string& source, int64_t max_violations,
                                  std::optional<ValidationOptions::IncrementBounds> increment);
  // An incremental run of the dataset's source (ValidateSource), under the
  // dataset's increment lock.
  ServiceResult<ValidationOutcome> ValidateIncrement(const Caller& caller, const Dataset& dataset,
                                                     const std::string& source, const ValidateOptions& options);
  // The lock that keeps one increment of `dataset` running at a time.
  std::shared_ptr<std::mutex> IncrementLock(const std::string& dataset);

  Options options_;
  KeyRing keys_;
  RateLimiter limiter_;
  ServiceMetrics metrics_;
  BatchScores scores_;
  TelemetryTracker telemetry_;
  std::unique_ptr<RunRecorder> recorder_;
  std::unique_ptr<AlertDispatcher> alerts_;  // the config's and the datasets' alerts
  std::mutex reader_mutex_;
  std::unique_ptr<RunStore> reader_;  // GET /v1/runs and watermarks, opened on first use
  std::mutex increment_locks_mutex_;
  std::map<std::string, std::shared_ptr<std::mutex>> increment_locks_;  // by dataset
  // The store's number of each loaded rule version, by (dataset, sha256),
  // set by the recorder's thread once written.
  mutable std::mutex rule_numbers_mutex_;
  std::condition_variable rule_number_known_;
  std::map<std::pair<std::string, std::string>, int64_t> rule_numbers_;
  std::unique_ptr<DatasetRegistry> registry_;
};

}  // namespace griffin::server
