// The HTTP service in process, with cpp-httplib's client (the Python tests
// drive the real `griffin serve` process).
#include "server/http_service.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <thread>

#include "server/service_test_util.h"

namespace griffin::server {
namespace {

TEST(HttpServiceTest, ServesAndDrains) {
  testing::TestService service;
  ASSERT_NE(service.core, nullptr);
  HttpService http(*service.core);
  ASSERT_TRUE(http.Bind("127.0.0.1", 0).ok());
  ASSERT_GT(http.port(), 0);
  std::thread serving([&http] { http.Serve(); });
  httplib::Client client("127.0.0.1", http.port());
  auto health = client.Get("/healthz");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  auto anonymous = client.Get("/v1/datasets");
  ASSERT_TRUE(anonymous);
  EXPECT_EQ(anonymous->status, 401);
  httplib::Headers key = {{"Authorization", "Bearer token-a"}};
  auto report = client.Post("/v1/datasets/steps/validate", key, "x\n1\n-2\n", "text/csv");
  ASSERT_TRUE(report);
  EXPECT_EQ(report->status, 200);
  EXPECT_NE(report->body.find("\"bad_rows\": 1"), std::string::npos);
  auto score = client.Post("/metrics", key, R"({"dataset": "steps", "loss": 0.5})", "application/json");
  ASSERT_TRUE(score);
  EXPECT_EQ(score->body, "{\"quality_score\": 1, \"passed\": true, \"reasons\": [], \"data_score\": null, "
                         "\"telemetry_score\": 1}");
  http.Drain();
  serving.join();
  EXPECT_EQ(http.received(), 4);
  EXPECT_EQ(http.answered(), 4);
  httplib::Client after("127.0.0.1", http.port());
  EXPECT_FALSE(after.Get("/healthz"));  // no longer listening
}

TEST(HttpServiceTest, APortInUseIsAnError) {
  testing::TestService service;
  ASSERT_NE(service.core, nullptr);
  HttpService first(*service.core), second(*service.core);
  ASSERT_TRUE(first.Bind("127.0.0.1", 0).ok());
  Status taken = second.Bind("127.0.0.1", first.port());
  EXPECT_FALSE(taken.ok());
  EXPECT_EQ(taken.message(), "--listen 127.0.0.1:" + std::to_string(first.port()) + ": cannot bind (in use?)");
}

}  // namespace
}  // namespace griffin::server
