#include "server/service_metrics.h"

#include <gtest/gtest.h>

namespace griffin::server {
namespace {

bool Has(const std::string& text, const std::string& line) { return text.find(line) != std::string::npos; }

TEST(ServiceMetricsTest, RendersTheTextExposition) {
  ServiceMetrics metrics;
  metrics.CountRequest("http", "metrics", 200, 0.0003);
  metrics.CountRequest("http", "metrics", 200, 0.002);
  metrics.CountRequest("http", "validate", 429, 0.0001);
  metrics.CountRows("steps", 100, 7);
  metrics.CountRows("steps", 50, 0);
  metrics.CountRateLimited("trainer");
  metrics.CountOverloaded("busy");
  metrics.CountReload("steps.yaml", false);
  metrics.SetDatasets(2);
  const std::string text = metrics.Render(5, 1, 2);
  EXPECT_TRUE(Has(text, "# TYPE griffin_requests_total counter")) << text;
  EXPECT_TRUE(Has(text, "griffin_requests_total{code=\"200\",protocol=\"http\",route=\"metrics\"} 2")) << text;
  EXPECT_TRUE(Has(text, "griffin_request_duration_seconds_bucket{protocol=\"http\",route=\"metrics\",le=\"0.0005\"} 1"))
      << text;
  EXPECT_TRUE(Has(text, "griffin_request_duration_seconds_count{protocol=\"http\",route=\"metrics\"} 2")) << text;
  EXPECT_TRUE(Has(text, "griffin_rows_validated_total{dataset=\"steps\"} 150")) << text;
  EXPECT_TRUE(Has(text, "griffin_bad_rows_total{dataset=\"steps\"} 7")) << text;
  EXPECT_TRUE(Has(text, "griffin_rate_limited_total{key_id=\"trainer\"} 1")) << text;
  EXPECT_TRUE(Has(text, "griffin_overloaded_total{reason=\"busy\"} 1")) << text;
  EXPECT_TRUE(Has(text, "griffin_rule_reloads_total{file=\"steps.yaml\",result=\"error\"} 1")) << text;
  EXPECT_TRUE(Has(text, "griffin_datasets_loaded 2")) << text;
  EXPECT_TRUE(Has(text, "griffin_runs_recorded_total{result=\"written\"} 5")) << text;
  // The recorder's totals only grow; rendering again adds the difference.
  EXPECT_TRUE(Has(metrics.Render(9, 1, 2), "griffin_runs_recorded_total{result=\"written\"} 9"));
}

TEST(ServiceMetricsTest, ARequestWithoutADurationIsCountedButNotTimed) {
  ServiceMetrics metrics;
  metrics.CountRequest("http", "malformed", 400, std::nullopt);
  const std::string text = metrics.Render(0, 0, 0);
  EXPECT_TRUE(Has(text, "griffin_requests_total{code=\"400\",protocol=\"http\",route=\"malformed\"} 1")) << text;
  EXPECT_FALSE(Has(text, "route=\"malformed\",le=")) << text;
  EXPECT_FALSE(Has(text, "griffin_request_duration_seconds_count{protocol=\"http\",route=\"malformed\"}")) << text;
}

}  // namespace
}  // namespace griffin::server
