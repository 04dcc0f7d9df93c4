#include "connectors/kafka/stream_headers.h"

#include <charconv>

#include "report/json_writer.h"

namespace griffin::kafka {
namespace {

constexpr std::string_view kVersionMetadataPrefix = "griffin-next-version=";

}  // namespace

std::string ErrorsHeader(const std::vector<RowError>& errors) {
  std::string json = "[";
  for (size_t i = 0; i < errors.size(); ++i) {
    if (i > 0) json += ", ";
    json += "{\"check\": ";
    AppendJsonString(errors[i].check, &json);
    json += ", \"message\": ";
    AppendJsonString(errors[i].message, &json);
    json += "}";
  }
  return json + "]";
}

std::string SourceHeader(std::string_view topic, int32_t partition, int64_t offset) {
  std::string json = "{\"topic\": ";
  AppendJsonString(topic, &json);
  return json + ", \"partition\": " + std::to_string(partition) + ", \"offset\": " + std::to_string(offset) + "}";
}

std::string VersionMetadata(int64_t next_version) {
  return std::string(kVersionMetadataPrefix) + std::to_string(next_version);
}

std::optional<int64_t> ParseVersionMetadata(std::string_view metadata) {
  if (metadata.substr(0, kVersionMetadataPrefix.size()) != kVersionMetadataPrefix) return std::nullopt;
  std::string_view digits = metadata.substr(kVersionMetadataPrefix.size());
  int64_t value = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || end != digits.data() + digits.size() || value < 1) return std::nullopt;
  return value;
}

}  // namespace griffin::kafka
