#include "server/metrics_request.h"

#include <simdjson.h>

#include <cmath>

#include "server/batch_scores.h"
#include "util/value_parse.h"

namespace griffin::server {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

Status Bad(const std::string& what) { return Status::UsageError(what); }

// A telemetry value: a number, or a string that parses as one; nullopt for null.
Result<std::optional<double>> ReadValue(const std::string& name, element value) {
  switch (value.type()) {
    case element_type::NULL_VALUE: return std::optional<double>();
    case element_type::DOUBLE:
    case element_type::INT64:
    case element_type::UINT64: return std::optional<double>(double(value));
    case element_type::STRING: {
      std::optional<double> parsed = ParseFloat64(std::string_view(value));
      if (parsed) return std::optional<double>(*parsed);
      break;
    }
    default: break;
  }
  return Bad(name + ": expected a number, null or a string like \"nan\"");
}

Result<std::optional<int64_t>> ReadStep(element value) {
  if (value.is_null()) return std::optional<int64_t>();
  if (value.is_int64()) return std::optional<int64_t>(int64_t(value));
  if (value.is_double()) {
    const double d = double(value);
    if (std::floor(d) == d && std::fabs(d) < 9.0e15) return std::optional<int64_t>(static_cast<int64_t>(d));
  }
  return Bad("step: expected an integer or null");
}

Result<std::string> ReadText(const char* name, element value, bool allow_null) {
  if (allow_null && value.is_null()) return std::string();
  if (!value.is_string()) return Bad(std::string(name) + ": expected a string" + (allow_null ? " or null" : ""));
  return std::string(std::string_view(value));
}

Status ReadMetrics(element value, TelemetryInput* telemetry) {
  if (value.is_null()) return Status::OK();
  simdjson::dom::object metrics;
  if (value.get_object().get(metrics)) return Bad("metrics: expected an object of numbers");
  for (auto [key, item] : metrics) {
    const std::string name(key);
    ASSIGN_OR_RETURN(std::optional<double> number, ReadValue("metrics." + name, item));
    if (number) telemetry->metrics[name] = *number;
    else telemetry->metrics.erase(name);
  }
  return Status::OK();
}

Status ReadRecords(element value, MetricsRequest* request) {
  request->records_jsonl.clear();
  request->record_count = 0;
  if (value.is_null()) return Status::OK();
  simdjson::dom::array records;
  if (value.get_array().get(records)) return Bad("records: expected a list of objects");
  for (element record : records) {
    request->records_jsonl += simdjson::minify(record);
    request->records_jsonl.push_back('\n');
    ++request->record_count;
  }
  request->has_records = request->record_count > 0;
  return Status::OK();
}

}  // namespace

Result<MetricsRequest> ParseMetricsRequest(std::string_view body) {
  // One parser per thread: its buffers are reused by the next request (every
  // value is copied out before this returns).
  thread_local simdjson::dom::parser parser;
  element root;
  if (auto error = parser.parse(body.data(), body.size(), /*realloc_if_needed=*/true).get(root)) {
    return Bad(std::string("invalid JSON: ") + simdjson::error_message(error));
  }
  simdjson::dom::object fields;
  if (root.get_object().get(fields)) return Bad("expected a JSON object with dataset, step, loss, ...");
  MetricsRequest request;
  bool has_dataset = false;
  bool batch_hash_given = false;  // null is "none"; "" is a bad hash (OpenAPI: minLength 1)
  for (auto [key, value] : fields) {
    if (key == "dataset") {
      ASSIGN_OR_RETURN(request.dataset, ReadText("dataset", value, /*allow_null=*/false));
      has_dataset = true;
    } else if (key == "step") {
      ASSIGN_OR_RETURN(request.telemetry.step, ReadStep(value));
    } else if (key == "batch_hash") {
      ASSIGN_OR_RETURN(request.batch_hash, ReadText("batch_hash", value, /*allow_null=*/true));
      batch_hash_given = !value.is_null();
    } else if (key == "run") {
      ASSIGN_OR_RETURN(request.run, ReadText("run", value, /*allow_null=*/true));
    } else if (key == "loss") {
      ASSIGN_OR_RETURN(std::optional<double> loss, ReadValue("loss", value));
      request.telemetry.loss_given = loss.has_value();
      request.telemetry.loss = loss.value_or(0);
    } else if (key == "metrics") {
      RETURN_IF_ERROR(ReadMetrics(value, &request.telemetry));
    } else if (key == "records") {
      RETURN_IF_ERROR(ReadRecords(value, &request));
    } else {
      return Bad("unknown field '" + std::string(key) +
                 "' (expected dataset, step, batch_hash, loss, metrics, records, run)");
    }
  }
  if (!has_dataset || request.dataset.empty()) return Bad("dataset: missing (the rule file's dataset name)");
  if (batch_hash_given && !IsValidBatchHash(request.batch_hash)) {
    return Bad("batch_hash: expected 1 to 128 characters of A-Z a-z 0-9 . _ : -");
  }
  if (request.run.size() > 128) return Bad("run: longer than 128 characters");
  return request;
}

}  // namespace griffin::server
