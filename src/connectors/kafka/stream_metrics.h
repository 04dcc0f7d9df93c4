// `griffin stream --metrics-listen HOST:PORT`: Prometheus metrics of the stream,
// served as text on GET /metrics by a small HTTP server of its own.
//
//   griffin_stream_records_in_total            messages committed (clean + dead-letter)
//   griffin_stream_clean_total, griffin_stream_dead_letter_total
//   griffin_stream_transactions_total{result}  committed | aborted
//   griffin_stream_batch_seconds               a micro-batch from its first message to its commit
//   griffin_stream_lag                         messages behind the input's high watermarks
//   griffin_stream_batch_quality_score         the last committed micro-batch's score
//   griffin_stream_window_quality_score        the last closed window's score (stream_window.h)
//   griffin_stream_windows_total               windows closed
//
//   StreamMetrics metrics;
//   ASSIGN_OR_RETURN(auto server, MetricsServer::Start("127.0.0.1:9464", metrics));
//   metrics.CountBatch(...);   // from the stream loop
//
// Thread-safe: prometheus-cpp families are.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include "util/status.h"

namespace httplib {
class Server;
}

namespace griffin::kafka {

class StreamMetrics {
 public:
  StreamMetrics();
  void CountBatch(int64_t clean, int64_t dead_letter, double seconds, double quality_score);
  void CountAbort();
  void CountWindow(double quality_score);
  void SetLag(int64_t lag);
  std::string Text() const;  // the text exposition format

 private:
  std::shared_ptr<prometheus::Registry> registry_;
  prometheus::Counter *records_in_, *clean_, *dead_letter_, *committed_, *aborted_, *windows_;
  prometheus::Histogram* batch_seconds_;
  prometheus::Gauge *lag_, *score_, *window_score_;
};

// Serves GET /metrics on its own thread until destroyed.
class MetricsServer {
 public:
  // `listen` is HOST:PORT (port 0: a free one, see port()); a UsageError when
  // it is malformed or cannot be bound.
  static Result<std::unique_ptr<MetricsServer>> Start(const std::string& listen, const StreamMetrics& metrics);
  ~MetricsServer();
  int port() const { return port_; }

 private:
  MetricsServer() = default;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;
};

}  // namespace griffin::kafka
