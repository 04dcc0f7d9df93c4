#include "connectors/delta/delta_table_ref.h"

#include <sys/stat.h>

#include <cctype>

#include "connectors/delta/delta_object_probe.h"
#include "connectors/objectstore/object_store.h"
#include "connectors/objectstore/object_uri.h"
#include "util/value_parse.h"

namespace griffin::delta {
namespace {

constexpr std::string_view kPrefix = "delta:";

std::string_view WithoutPrefix(std::string_view input) {
  return HasDeltaPrefix(input) ? input.substr(kPrefix.size()) : input;
}

// Splits "LOCATION@v=N" / "LOCATION@ts=T" into the location and the suffix (without '@').
std::pair<std::string_view, std::string_view> SplitTimeTravel(std::string_view text) {
  for (std::string_view marker : {"@v=", "@ts="}) {
    const size_t at = text.rfind(marker);
    if (at != std::string_view::npos && at > 0) return {text.substr(0, at), text.substr(at + 1)};
  }
  return {text, {}};
}

bool HoldsDeltaLog(const std::string& folder) {
  struct stat info;
  return ::stat((folder + "/_delta_log").c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

}  // namespace

bool HasDeltaPrefix(std::string_view input) {
  if (input.size() < kPrefix.size()) return false;
  for (size_t i = 0; i < kPrefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(input[i])) != kPrefix[i]) return false;
  return true;
}

bool IsDeltaInput(std::string_view input) {
  if (HasDeltaPrefix(input)) return true;
  std::string_view location = SplitTimeTravel(input).first;
  if (IsObjectStoreUri(location)) return ObjectPrefixHoldsDeltaLog(location);
  if (input.find("://") != std::string_view::npos && input.substr(0, 7) != "file://") return false;
  if (location.substr(0, 7) == "file://") location.remove_prefix(7);
  return !location.empty() && HoldsDeltaLog(std::string(location));
}

Result<DeltaTableRef> ParseDeltaTableRef(std::string_view input) {
  DeltaTableRef ref;
  const std::string shown = "delta:" + std::string(WithoutPrefix(input));
  auto [location, travel] = SplitTimeTravel(WithoutPrefix(input));
  if (!travel.empty()) {
    if (travel.substr(0, 2) == "v=") {
      std::optional<int64_t> version = ParseInt64(travel.substr(2));
      if (!version || *version < 0)
        return Status::UsageError(shown + ": the version after @v= must be a whole number >= 0");
      ref.version = *version;
    } else {
      std::optional<int64_t> micros = ParseTimestamp(travel.substr(3));
      if (!micros)
        return Status::UsageError(shown + ": the time after @ts= must be ISO 8601, as 2026-12-01T00:00:00Z");
      ref.timestamp_ms = *micros / 1000;
    }
  }
  if (location.empty()) return Status::UsageError(shown + ": no table location (delta:PATH or delta:s3://bucket/path)");
  if (IsObjectStoreUri(location)) {
    ASSIGN_OR_RETURN(ObjectUri uri, ParseObjectUri(location));
    ref.location = uri.Display();
    // The endpoint the object reader uses (?endpoint=, else AWS_ENDPOINT_URL_S3 /
    // AWS_ENDPOINT_URL or STORAGE_EMULATOR_HOST), in object_store's keys.
    ASSIGN_OR_RETURN(ClientSettings settings, ClientSettingsFor(uri));
    if (!settings.endpoint_host_port.empty()) {
      const std::string endpoint = settings.endpoint_scheme + "://" + settings.endpoint_host_port;
      ref.store_options.emplace_back(uri.scheme == "s3" ? "aws_endpoint" : "google_base_url", endpoint);
      if (uri.scheme == "gs" && settings.endpoint_scheme == "http") ref.store_options.emplace_back("allow_http", "true");
    }
    // An emulator is reached without credentials, as the object reader reaches it: object_store's
    // way is a service account key that disables OAuth (reads and writes send no token).
    if (uri.scheme == "gs" && settings.anonymous)
      ref.store_options.emplace_back(
          "google_service_account_key",
          R"({"private_key": "", "private_key_id": "", "client_email": "", "disable_oauth": true})");
    if (!uri.region.empty()) ref.store_options.emplace_back("aws_region", uri.region);
  } else if (location.find("://") != std::string_view::npos && location.substr(0, 7) != "file://") {
    return Status::UsageError(shown + ": a Delta table is a local folder, s3:// or gs://");
  } else {
    ref.location = std::string(location.substr(0, 7) == "file://" ? location.substr(7) : location);
  }
  ref.display = "delta:" + ref.location + (travel.empty() ? "" : "@" + std::string(travel));
  return ref;
}

}  // namespace griffin::delta
