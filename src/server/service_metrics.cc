#include "server/service_metrics.h"

#include <prometheus/text_serializer.h>

#include <algorithm>

namespace griffin::server {
namespace {

// Latency buckets from 50 us to 10 s: the service answers small requests in
// well under a millisecond, validations of large bodies in seconds.
const prometheus::Histogram::BucketBoundaries& LatencyBuckets() {
  static const prometheus::Histogram::BucketBoundaries buckets = {
      0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10};
  return buckets;
}

}  // namespace

ServiceMetrics::ServiceMetrics() : registry_(std::make_shared<prometheus::Registry>()) {
  requests_ = &prometheus::BuildCounter().Name("griffin_requests_total").Help("Requests answered").Register(*registry_);
  durations_ = &prometheus::BuildHistogram()
                    .Name("griffin_request_duration_seconds")
                    .Help("Time from the request's arrival to its answer")
                    .Register(*registry_);
  rows_ = &prometheus::BuildCounter().Name("griffin_rows_validated_total").Help("Rows validated").Register(*registry_);
  bad_rows_ = &prometheus::BuildCounter().Name("griffin_bad_rows_total").Help("Bad rows found").Register(*registry_);
  rate_limited_ = &prometheus::BuildCounter()
                       .Name("griffin_rate_limited_total")
                       .Help("Requests refused with 429 by a key's rate limit")
                       .Register(*registry_);
  overloaded_ = &prometheus::BuildCounter()
                     .Name("griffin_overloaded_total")
                     .Help("Requests refused with 503: busy (max_concurrent) or queue_full")
                     .Register(*registry_);
  reloads_ = &prometheus::BuildCounter()
                  .Name("griffin_rule_reloads_total")
                  .Help("Rule files loaded after a change (ok) or refused (error)")
                  .Register(*registry_);
  runs_ = &prometheus::BuildCounter()
               .Name("griffin_runs_recorded_total")
               .Help("Run-store writes: written, failed, dropped (queue full)")
               .Register(*registry_);
  in_flight_ = &prometheus::BuildGauge()
                    .Name("griffin_requests_in_flight")
                    .Help("Requests being handled")
                    .Register(*registry_)
                    .Add({});
  datasets_ = &prometheus::BuildGauge()
                   .Name("griffin_datasets_loaded")
                   .Help("Datasets whose rules are loaded")
                   .Register(*registry_)
                   .Add({});
}

void ServiceMetrics::CountRequest(const std::string& protocol, const std::string& route, int code,
                                  std::optional<double> seconds) {
  requests_->Add({{"protocol", protocol}, {"route", route}, {"code", std::to_string(code)}}).Increment();
  if (seconds) durations_->Add({{"protocol", protocol}, {"route", route}}, LatencyBuckets()).Observe(*seconds);
}

void ServiceMetrics::CountRows(const std::string& dataset, int64_t rows, int64_t bad_rows) {
  rows_->Add({{"dataset", dataset}}).Increment(static_cast<double>(rows));
  bad_rows_->Add({{"dataset", dataset}}).Increment(static_cast<double>(bad_rows));
}

void ServiceMetrics::CountRateLimited(const std::string& key_id) { rate_limited_->Add({{"key_id", key_id}}).Increment(); }

void ServiceMetrics::CountOverloaded(const std::string& reason) { overloaded_->Add({{"reason", reason}}).Increment(); }

void ServiceMetrics::CountReload(const std::string& file, bool ok) {
  reloads_->Add({{"file", file}, {"result", ok ? "ok" : "error"}}).Increment();
}

void ServiceMetrics::SetDatasets(size_t loaded) { datasets_->Set(static_cast<double>(loaded)); }

std::string ServiceMetrics::Render(int64_t runs_written, int64_t runs_failed, int64_t runs_dropped) {
  std::lock_guard<std::mutex> lock(render_mutex_);
  const int64_t now[3] = {runs_written, runs_failed, runs_dropped};
  const char* names[3] = {"written", "failed", "dropped"};
  for (int i = 0; i < 3; ++i) {
    runs_->Add({{"result", names[i]}}).Increment(static_cast<double>(std::max<int64_t>(0, now[i] - runs_seen_[i])));
    runs_seen_[i] = std::max(runs_seen_[i], now[i]);
  }
  return prometheus::TextSerializer().Serialize(registry_->Collect());
}

}  // namespace griffin::server
