// The body of POST /metrics (docs/service.md, docs/openapi.yaml):
//
//   {"dataset": "steps", "step": 12, "batch_hash": "9f3a...", "loss": 0.31,
//    "metrics": {"grad_norm": 1.7}, "records": [{"x": 1.5, "y": 0}, ...],
//    "run": "job-42"}
//
// Only "dataset" is required. "loss" and metric values are numbers, null,
// or strings of numbers ("nan", "inf", "-inf": JSON has no such numbers).
// "records" are validated as JSON lines would be (a record that is not an
// object is a malformed row). "run" (optional) separates the telemetry
// history of jobs that share a key. Unknown fields are errors.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "server/telemetry.h"
#include "util/status.h"

namespace griffin::server {

struct MetricsRequest {
  std::string dataset;
  std::string batch_hash;        // empty when not given
  std::string run;               // empty when not given
  TelemetryInput telemetry;      // step, loss, metrics
  bool has_records = false;      // a non-empty "records" list was given
  std::string records_jsonl;     // the records, one JSON object (or value) per line
  int64_t record_count = 0;
};

// A UsageError with a one-line reason for a body that is not such an object
// ("metrics.lr: expected a number, null or a string like \"nan\"").
Result<MetricsRequest> ParseMetricsRequest(std::string_view body);

}  // namespace griffin::server
