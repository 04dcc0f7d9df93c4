#include "server/metrics_request.h"

#include <gtest/gtest.h>

#include <cmath>

namespace griffin::server {
namespace {

std::string ErrorOf(std::string_view body) {
  auto parsed = ParseMetricsRequest(body);
  return parsed.ok() ? "OK" : parsed.status().message();
}

TEST(MetricsRequestTest, ReadsEveryField) {
  auto parsed = ParseMetricsRequest(
      R"({"dataset": "steps", "step": 12, "batch_hash": "9f3a", "loss": 0.5, "run": "job-1",
          "metrics": {"lr": 0.01, "gn": "inf", "skip": null},
          "records": [{"x": 1.5, "y": 0}, {"x": "NaN"}, 7]})");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  const MetricsRequest& r = *parsed;
  EXPECT_EQ(r.dataset, "steps");
  EXPECT_EQ(r.telemetry.step, 12);
  EXPECT_EQ(r.batch_hash, "9f3a");
  EXPECT_EQ(r.run, "job-1");
  EXPECT_TRUE(r.telemetry.loss_given);
  EXPECT_EQ(r.telemetry.loss, 0.5);
  EXPECT_EQ(r.telemetry.metrics.size(), 2u);
  EXPECT_EQ(r.telemetry.metrics.at("lr"), 0.01);
  EXPECT_TRUE(std::isinf(r.telemetry.metrics.at("gn")));
  EXPECT_TRUE(r.has_records);
  EXPECT_EQ(r.record_count, 3);
  EXPECT_EQ(r.records_jsonl, "{\"x\":1.5,\"y\":0}\n{\"x\":\"NaN\"}\n7\n");
}

TEST(MetricsRequestTest, OptionalFieldsAndNulls) {
  auto parsed = ParseMetricsRequest(R"({"dataset": "d", "step": null, "loss": null, "batch_hash": null,
                                        "records": [], "metrics": null})");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_FALSE(parsed->telemetry.step.has_value());
  EXPECT_FALSE(parsed->telemetry.loss_given);
  EXPECT_TRUE(parsed->batch_hash.empty());
  EXPECT_FALSE(parsed->has_records);  // an empty list is no data
  auto nan = ParseMetricsRequest(R"({"dataset": "d", "loss": "nan", "step": 3.0})");
  ASSERT_TRUE(nan.ok());
  EXPECT_TRUE(std::isnan(nan->telemetry.loss));
  EXPECT_EQ(nan->telemetry.step, 3);
}

TEST(MetricsRequestTest, ErrorsAreOneLine) {
  EXPECT_EQ(ErrorOf("{"), "invalid JSON: The JSON document has an improper structure: missing or superfluous commas, braces, missing keys, etc.");
  EXPECT_EQ(ErrorOf("[1]"), "expected a JSON object with dataset, step, loss, ...");
  EXPECT_EQ(ErrorOf("{}"), "dataset: missing (the rule file's dataset name)");
  EXPECT_EQ(ErrorOf(R"({"dataset": 3})"), "dataset: expected a string");
  EXPECT_EQ(ErrorOf(R"({"dataset": "d", "step": 1.5})"), "step: expected an integer or null");
  EXPECT_EQ(ErrorOf(R"({"dataset": "d", "loss": "high"})"), "loss: expected a number, null or a string like \"nan\"");
  EXPECT_EQ(ErrorOf(R"({"dataset": "d", "metrics": {"lr": [1]}})"),
            "metrics.lr: expected a number, null or a string like \"nan\"");
  EXPECT_EQ(ErrorOf(R"({"dataset": "d", "metrics": [1]})"), "metrics: expected an object of numbers");
  EXPECT_EQ(ErrorOf(R"({"dataset": "d", "records": {"a": 1}})"), "records: expected a list of objects");
  EXPECT_EQ(ErrorOf(R"({"dataset": "d", "batch_hash": "a b"})"),
            "batch_hash: expected 1 to 128 characters of A-Z a-z 0-9 . _ : -");
  EXPECT_EQ(ErrorOf(R"({"dataset": "d", "batch_hash": ""})"),  // null is none; "" is bad
            "batch_hash: expected 1 to 128 characters of A-Z a-z 0-9 . _ : -");
  EXPECT_EQ(ErrorOf(R"({"dataset": "d", "los": 1})"),
            "unknown field 'los' (expected dataset, step, batch_hash, loss, metrics, records, run)");
}

}  // namespace
}  // namespace griffin::server
