// The service's Prometheus metrics (GET /metrics, text exposition format),
// on prometheus-cpp's registry. Label values are bounded: routes are route
// names, datasets are the loaded ones, key ids come from the config.
//
//   griffin_requests_total{protocol, route, code}           requests answered; route
//                                                           "malformed": HTTP that did not parse
//   griffin_request_duration_seconds{protocol, route}       latency histogram (routed requests)
//   griffin_rows_validated_total{dataset}, griffin_bad_rows_total{dataset}
//   griffin_rate_limited_total{key_id}                      429s
//   griffin_overloaded_total{reason}                        503s: busy, queue_full
//   griffin_rule_reloads_total{file, result}                ok | error
//   griffin_runs_recorded_total{result}                     written | failed | dropped
//   griffin_requests_in_flight, griffin_datasets_loaded     gauges
//
// Thread-safe: prometheus-cpp families are.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

namespace griffin::server {

class ServiceMetrics {
 public:
  ServiceMetrics();

  // One answered request (protocol "http" or "flight") that took `seconds`;
  // nullopt: its duration is unknown (a malformed request), so it is counted
  // but not observed in the latency histogram.
  void CountRequest(const std::string& protocol, const std::string& route, int code,
                    std::optional<double> seconds);
  void CountRows(const std::string& dataset, int64_t rows, int64_t bad_rows);
  void CountRateLimited(const std::string& key_id);
  void CountOverloaded(const std::string& reason);
  void CountReload(const std::string& file, bool ok);
  void SetDatasets(size_t loaded);
  prometheus::Gauge& in_flight() { return *in_flight_; }

  // The text exposition of every metric; `runs_*` are the recorder's totals.
  std::string Render(int64_t runs_written, int64_t runs_failed, int64_t runs_dropped);

 private:
  std::shared_ptr<prometheus::Registry> registry_;
  prometheus::Family<prometheus::Counter>* requests_;
  prometheus::Family<prometheus::Histogram>* durations_;
  prometheus::Family<prometheus::Counter>* rows_;
  prometheus::Family<prometheus::Counter>* bad_rows_;
  prometheus::Family<prometheus::Counter>* rate_limited_;
  prometheus::Family<prometheus::Counter>* overloaded_;
  prometheus::Family<prometheus::Counter>* reloads_;
  prometheus::Family<prometheus::Counter>* runs_;
  std::mutex render_mutex_;
  int64_t runs_seen_[3] = {0, 0, 0};  // written, failed, dropped at the last Render
  prometheus::Gauge* in_flight_;
  prometheus::Gauge* datasets_;
};

}  // namespace griffin::server
