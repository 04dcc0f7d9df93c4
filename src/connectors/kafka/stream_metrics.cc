#include "connectors/kafka/stream_metrics.h"

#include <httplib.h>
#include <prometheus/text_serializer.h>

namespace griffin::kafka {
namespace {

// A micro-batch takes from milliseconds (small, fast broker) to its batch_ms
// plus a slow commit.
const prometheus::Histogram::BucketBoundaries& BatchBuckets() {
  static const prometheus::Histogram::BucketBoundaries buckets = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
                                                                  0.25,  0.5,    1,     2.5,  5,     10};
  return buckets;
}

}  // namespace

StreamMetrics::StreamMetrics() : registry_(std::make_shared<prometheus::Registry>()) {
  auto counter = [this](const char* name, const char* help) -> prometheus::Family<prometheus::Counter>& {
    return prometheus::BuildCounter().Name(name).Help(help).Register(*registry_);
  };
  records_in_ = &counter("griffin_stream_records_in_total", "Messages committed (clean + dead-letter)").Add({});
  clean_ = &counter("griffin_stream_clean_total", "Messages written to the clean topic").Add({});
  dead_letter_ = &counter("griffin_stream_dead_letter_total", "Messages written to the dead-letter topic").Add({});
  auto& transactions = counter("griffin_stream_transactions_total", "Transactions, by result");
  committed_ = &transactions.Add({{"result", "committed"}});
  aborted_ = &transactions.Add({{"result", "aborted"}});
  batch_seconds_ = &prometheus::BuildHistogram()
                        .Name("griffin_stream_batch_seconds")
                        .Help("A micro-batch from its first message to its commit")
                        .Register(*registry_)
                        .Add({}, BatchBuckets());
  lag_ = &prometheus::BuildGauge()
              .Name("griffin_stream_lag")
              .Help("Messages behind the input partitions' high watermarks")
              .Register(*registry_)
              .Add({});
  score_ = &prometheus::BuildGauge()
                .Name("griffin_stream_batch_quality_score")
                .Help("The quality score of the last committed micro-batch")
                .Register(*registry_)
                .Add({});
  window_score_ = &prometheus::BuildGauge()
                       .Name("griffin_stream_window_quality_score")
                       .Help("The quality score of the last closed window (clean records / records)")
                       .Register(*registry_)
                       .Add({});
  windows_ = &counter("griffin_stream_windows_total", "Windows closed (each one run in the store)").Add({});
}

void StreamMetrics::CountBatch(int64_t clean, int64_t dead_letter, double seconds, double quality_score) {
  records_in_->Increment(static_cast<double>(clean + dead_letter));
  clean_->Increment(static_cast<double>(clean));
  dead_letter_->Increment(static_cast<double>(dead_letter));
  committed_->Increment();
  batch_seconds_->Observe(seconds);
  score_->Set(quality_score);
}

void StreamMetrics::CountAbort() { aborted_->Increment(); }

void StreamMetrics::CountWindow(double quality_score) {
  windows_->Increment();
  window_score_->Set(quality_score);
}

void StreamMetrics::SetLag(int64_t lag) { lag_->Set(static_cast<double>(lag)); }

std::string StreamMetrics::Text() const { return prometheus::TextSerializer().Serialize(registry_->Collect()); }

Result<std::unique_ptr<MetricsServer>> MetricsServer::Start(const std::string& listen, const StreamMetrics& metrics) {
  size_t colon = listen.rfind(':');
  int port = -1;
  if (colon != std::string::npos && colon > 0 && colon + 1 < listen.size() &&
      listen.find_first_not_of("0123456789", colon + 1) == std::string::npos && listen.size() - colon <= 6) {
    port = std::stoi(listen.substr(colon + 1));
  }
  if (port < 0 || port > 65535) {
    return Status::UsageError("--metrics-listen '" + listen + "': expected HOST:PORT");
  }
  std::string host = listen.substr(0, colon);
  std::unique_ptr<MetricsServer> server(new MetricsServer());
  server->server_ = std::make_unique<httplib::Server>();
  server->server_->Get("/metrics", [&metrics](const httplib::Request&, httplib::Response& response) {
    response.set_content(metrics.Text(), "text/plain; version=0.0.4");
  });
  server->port_ = port == 0 ? server->server_->bind_to_any_port(host) : port;
  if (server->port_ < 0 || (port != 0 && !server->server_->bind_to_port(host, port))) {
    return Status::UsageError("--metrics-listen '" + listen + "': cannot listen there");
  }
  httplib::Server* raw = server->server_.get();
  server->thread_ = std::thread([raw] { raw->listen_after_bind(); });
  return server;
}

MetricsServer::~MetricsServer() {
  if (server_) server_->stop();
  if (thread_.joinable()) thread_.join();
}

}  // namespace griffin::kafka
