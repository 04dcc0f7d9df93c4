#include "connectors/objectstore/object_store.h"

#include <arrow/filesystem/gcsfs.h>
#include <arrow/filesystem/s3fs.h>
#include <arrow/util/key_value_metadata.h>

#include "connectors/objectstore/listing_cache.h"

#include <chrono>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace griffin {
namespace {

constexpr double kConnectTimeoutSeconds = 5;
constexpr double kRequestTimeoutSeconds = 30;
constexpr int kS3Attempts = 3;
constexpr double kGcsRetrySeconds = 4;

std::mutex& CacheMutex() {
  static std::mutex mutex;
  return mutex;
}

std::map<std::string, std::shared_ptr<arrow::fs::FileSystem>>& Cache() {
  static auto* cache = new std::map<std::string, std::shared_ptr<arrow::fs::FileSystem>>();
  return *cache;
}

std::map<std::string, std::shared_ptr<arrow::fs::FileSystem>>& TestStores() {
  static auto* stores = new std::map<std::string, std::shared_ptr<arrow::fs::FileSystem>>();
  return *stores;
}

// Drops the clients, then shuts the AWS SDK down (Arrow: before exit, or a
// crash at shutdown).
void FinalizeAtExit() {
  {
    std::lock_guard<std::mutex> lock(CacheMutex());
    Cache().clear();
  }
  (void)arrow::fs::EnsureS3Finalized();
}

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

std::string OneLine(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

Result<std::shared_ptr<arrow::fs::FileSystem>> MakeS3(const ObjectUri& uri, const ClientSettings& settings) {
  arrow::Status initialized = arrow::fs::EnsureS3Initialized();
  if (!initialized.ok()) return ObjectStoreError(uri, initialized);
  arrow::fs::S3Options options = arrow::fs::S3Options::Defaults();
  options.region = settings.region;
  if (!settings.endpoint_host_port.empty()) {
    options.endpoint_override = settings.endpoint_host_port;
    options.scheme = settings.endpoint_scheme;
  }
  options.connect_timeout = kConnectTimeoutSeconds;
  options.request_timeout = kRequestTimeoutSeconds;
  options.retry_strategy = arrow::fs::S3RetryStrategy::GetAwsStandardRetryStrategy(kS3Attempts);
  auto made = arrow::fs::S3FileSystem::Make(options);
  if (!made.ok()) return ObjectStoreError(uri, made.status());
  // Registered after the first client exists: Arrow's own client registry is
  // a static made with it, and must still be alive when the handler runs.
  static std::once_flag registered;
  std::call_once(registered, [] { std::atexit(FinalizeAtExit); });
  return std::shared_ptr<arrow::fs::FileSystem>(*made);
}

Result<std::shared_ptr<arrow::fs::FileSystem>> MakeGcs(const ObjectUri& uri, const ClientSettings& settings) {
  arrow::fs::GcsOptions options =
      settings.anonymous ? arrow::fs::GcsOptions::Anonymous() : arrow::fs::GcsOptions::Defaults();
  if (!settings.endpoint_host_port.empty()) {
    options.endpoint_override = settings.endpoint_host_port;
    options.scheme = settings.endpoint_scheme;
  }
  options.retry_limit_seconds = kGcsRetrySeconds;
  auto made = arrow::fs::GcsFileSystem::Make(options);
  if (!made.ok()) return ObjectStoreError(uri, made.status());
  return std::shared_ptr<arrow::fs::FileSystem>(*made);
}

std::string EndpointFor(const ObjectUri& uri) {
  if (!uri.endpoint.empty()) return uri.endpoint;
  if (uri.scheme == "gs") {
    std::string host = Env("STORAGE_EMULATOR_HOST");
    return host;
  }
  std::string endpoint = Env("AWS_ENDPOINT_URL_S3");
  return endpoint.empty() ? Env("AWS_ENDPOINT_URL") : endpoint;
}

}  // namespace

Result<ClientSettings> ClientSettingsFor(const ObjectUri& uri) {
  ClientSettings settings;
  const std::string endpoint = EndpointFor(uri);
  if (!endpoint.empty()) {
    ASSIGN_OR_RETURN(Endpoint parsed, ParseEndpoint(endpoint, uri.Display()));
    settings.endpoint_scheme = parsed.scheme;
    settings.endpoint_host_port = parsed.host_port;
  }
  if (uri.scheme == "gs") {
    settings.anonymous = !endpoint.empty();  // an emulator
    return settings;
  }
  settings.region = uri.region;
  if (settings.region.empty()) settings.region = Env("AWS_REGION");
  if (settings.region.empty()) settings.region = Env("AWS_DEFAULT_REGION");
  if (settings.region.empty() && !endpoint.empty()) settings.region = "us-east-1";  // S3-compatible stores ignore it
  return settings;
}

Status ObjectStoreError(const ObjectUri& uri, const arrow::Status& status) {
  std::string message = OneLine(status.message());
  // google-cloud-cpp appends its retry bookkeeping, repeating the message.
  const size_t details = message.find(" error_info={");
  if (details != std::string::npos) message.resize(details);
  return Status::InputError(uri.Display() + ": " + message);
}

Result<std::shared_ptr<arrow::fs::FileSystem>> ObjectStoreFor(const ObjectUri& uri) {
  const std::string endpoint = EndpointFor(uri);
  const std::string key = uri.scheme + "|" + endpoint + "|" + uri.region;
  std::lock_guard<std::mutex> lock(CacheMutex());
  if (auto test = TestStores().find(uri.scheme); test != TestStores().end()) return test->second;
  auto found = Cache().find(key);
  if (found != Cache().end()) return found->second;
  ASSIGN_OR_RETURN(ClientSettings settings, ClientSettingsFor(uri));
  Result<std::shared_ptr<arrow::fs::FileSystem>> made =
      uri.scheme == "gs" ? MakeGcs(uri, settings) : MakeS3(uri, settings);
  if (!made.ok()) return made.status();
  Cache()[key] = *made;
  return *made;
}

void SetObjectStoreForTesting(const std::string& scheme, std::shared_ptr<arrow::fs::FileSystem> fs) {
  std::lock_guard<std::mutex> lock(CacheMutex());
  if (fs == nullptr) TestStores().erase(scheme);
  else TestStores()[scheme] = std::move(fs);
}

Result<ObjectIdentity> DescribeObject(const ObjectUri& uri) {
  ASSIGN_OR_RETURN(auto fs, ObjectStoreFor(uri));
  auto file = fs->OpenInputFile(uri.FsPath());
  if (!file.ok()) return ObjectStoreError(uri, file.status());
  ObjectIdentity identity;
  auto size = (*file)->GetSize();
  if (!size.ok()) return ObjectStoreError(uri, size.status());
  identity.size = *size;
  // The time of the version listed before the read, else one more request.
  std::optional<arrow::fs::FileInfo> listed = RecentListing(uri);
  if (!listed || listed->size() != identity.size) {
    auto info = fs->GetFileInfo(uri.FsPath());
    if (info.ok()) listed = *info;
  }
  if (listed && listed->mtime() != arrow::fs::kNoTime)
    identity.mtime_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(listed->mtime().time_since_epoch()).count();
  auto metadata = (*file)->ReadMetadata();
  if (metadata.ok() && *metadata != nullptr) {
    // GCS: the generation identifies one version of an object; S3: the ETag.
    const auto names = uri.scheme == "gs" ? std::vector<const char*>{"generation", "etag", "ETag"}
                                          : std::vector<const char*>{"ETag", "etag"};
    for (const char* name : names) {
      auto value = (*metadata)->Get(name);
      if (!value.ok()) continue;
      identity.etag = *value;
      break;
    }
  }
  if (identity.etag.size() >= 2 && identity.etag.front() == '"' && identity.etag.back() == '"')
    identity.etag = identity.etag.substr(1, identity.etag.size() - 2);
  return identity;
}

}  // namespace griffin
