#include "connectors/kafka/stream_metrics.h"

#include <gtest/gtest.h>
#include <httplib.h>

namespace griffin::kafka {
namespace {

TEST(StreamMetrics, CountsBatchesAbortsAndLag) {
  StreamMetrics metrics;
  metrics.CountBatch(7, 3, 0.02, 0.7);
  metrics.CountBatch(5, 0, 0.01, 1.0);
  metrics.CountAbort();
  metrics.SetLag(42);
  std::string text = metrics.Text();
  EXPECT_NE(text.find("griffin_stream_records_in_total 15"), std::string::npos) << text;
  EXPECT_NE(text.find("griffin_stream_clean_total 12"), std::string::npos);
  EXPECT_NE(text.find("griffin_stream_dead_letter_total 3"), std::string::npos);
  EXPECT_NE(text.find("griffin_stream_transactions_total{result=\"committed\"} 2"), std::string::npos);
  EXPECT_NE(text.find("griffin_stream_transactions_total{result=\"aborted\"} 1"), std::string::npos);
  EXPECT_NE(text.find("griffin_stream_batch_seconds_count 2"), std::string::npos);
  EXPECT_NE(text.find("griffin_stream_lag 42"), std::string::npos);
  EXPECT_NE(text.find("griffin_stream_batch_quality_score 1"), std::string::npos);
  EXPECT_NE(text.find("griffin_stream_windows_total 0"), std::string::npos);
}

TEST(StreamMetrics, TheLastClosedWindowsScoreAndTheWindowCount) {
  StreamMetrics metrics;
  metrics.CountWindow(0.25);
  metrics.CountWindow(0.75);
  std::string text = metrics.Text();
  EXPECT_NE(text.find("griffin_stream_window_quality_score 0.75"), std::string::npos) << text;
  EXPECT_NE(text.find("griffin_stream_windows_total 2"), std::string::npos) << text;
}

TEST(MetricsServer, ServesMetricsOnAFreePort) {
  StreamMetrics metrics;
  metrics.CountBatch(1, 1, 0.01, 0.5);
  auto server = MetricsServer::Start("127.0.0.1:0", metrics);
  ASSERT_TRUE(server.ok()) << server.status().message();
  httplib::Client client("127.0.0.1", (*server)->port());
  auto response = client.Get("/metrics");
  ASSERT_TRUE(response);
  EXPECT_EQ(response->status, 200);
  EXPECT_NE(response->body.find("griffin_stream_records_in_total 2"), std::string::npos) << response->body;
}

TEST(MetricsServer, RejectsBadAddresses) {
  StreamMetrics metrics;
  for (const char* listen : {"nowhere", "127.0.0.1:", "127.0.0.1:99999", ":80", "127.0.0.1:x"}) {
    auto server = MetricsServer::Start(listen, metrics);
    ASSERT_FALSE(server.ok()) << listen;
    EXPECT_EQ(server.status().code(), StatusCode::kUsageError);
  }
}

}  // namespace
}  // namespace griffin::kafka
