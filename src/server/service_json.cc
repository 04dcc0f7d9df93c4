#include "server/service_json.h"

#include <filesystem>

#include "report/json_writer.h"
#include "util/value_parse.h"

namespace griffin::server {
namespace {

void Field(const char* name, const std::string& value, std::string* out) {
  AppendJsonString(name, out);
  *out += ": ";
  AppendJsonString(value, out);
}

void OptionalField(const char* name, const std::string& value, std::string* out) {
  AppendJsonString(name, out);
  *out += ": ";
  if (value.empty()) *out += "null";
  else AppendJsonString(value, out);
}

}  // namespace

std::string ErrorJson(const std::string& message, const std::string& code) {
  std::string out = "{";
  Field("error", message, &out);
  if (!code.empty()) {
    out += ", ";
    Field("code", code, &out);
  }
  return out + "}";
}

std::string DatasetListJson(const std::vector<std::shared_ptr<const Dataset>>& datasets,
                            const std::function<std::optional<int64_t>(const Dataset&)>& version_of) {
  std::string out = "{\"datasets\": [";
  for (size_t i = 0; i < datasets.size(); ++i) {
    const Dataset& d = *datasets[i];
    if (i > 0) out += ", ";
    out += "{";
    Field("name", d.name, &out);
    out += ", ";
    Field("file", std::filesystem::path(d.path).filename().string(), &out);
    out += ", ";
    Field("rules_sha256", d.sha256, &out);
    const std::optional<int64_t> version = version_of(d);
    out += ", \"version\": " + (version ? std::to_string(*version) : std::string("null"));
    out += ", \"generation\": " + std::to_string(d.generation) + ", ";
    Field("loaded_at", d.loaded_at, &out);
    out += ", ";
    Field("description", d.rules().description, &out);
    out += ", \"columns\": [";
    for (size_t c = 0; c < d.rules().columns.size(); ++c) {
      if (c > 0) out += ", ";
      AppendJsonString(d.rules().columns[c].name, &out);
    }
    out += d.rules().training ? "], \"training\": true}" : "], \"training\": false}";
  }
  return out + "]}";
}

std::string RunListJson(const std::string& dataset, const std::vector<RunSummary>& runs) {
  std::string out = "{";
  Field("dataset", dataset, &out);
  out += ", \"runs\": [";
  for (size_t i = 0; i < runs.size(); ++i) {
    const RunSummary& r = runs[i];
    if (i > 0) out += ", ";
    out += "{";
    Field("run_id", r.run_id, &out);
    out += ", \"run_number\": " + std::to_string(r.version) + ", \"version\": " + std::to_string(r.version);
    out += ", \"rules_version\": " + (r.rules_version > 0 ? std::to_string(r.rules_version) : std::string("null"));
    out += ", ";
    OptionalField("rules_sha256", r.rules_sha256, &out);
    out += ", ";
    Field("started_at", r.started_at, &out);
    out += ", ";
    OptionalField("ended_at", r.ended_at, &out);
    out += ", ";
    Field("status", r.status, &out);
    out += ", \"rows\": " + std::to_string(r.rows) + ", \"bad_rows\": " + std::to_string(r.bad_rows);
    out += ", \"quality_score\": " + FormatDouble(r.quality_score);
    out += r.passed ? ", \"passed\": true, " : ", \"passed\": false, ";
    OptionalField("key_id", r.key_id, &out);
    out += ", ";
    OptionalField("origin", r.origin, &out);
    out += "}";
  }
  return out + "]}";
}

}  // namespace griffin::server
