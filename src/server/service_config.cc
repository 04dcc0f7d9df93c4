#include "server/service_config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <set>

#include "rules/alert_loader.h"
#include "io/source_registry.h"
#include "rules/yaml_helpers.h"
#include "server/file_text.h"
#include "util/value_parse.h"

namespace griffin::server {
namespace {

using rules_internal::Field;
using rules_internal::YamlContext;

Result<std::array<uint8_t, 32>> ReadDigest(const YamlContext& ctx, const Field& field) {
  ASSIGN_OR_RETURN(std::string hex, rules_internal::ReadString(ctx, field));
  std::array<uint8_t, 32> digest{};
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  bool ok = hex.size() == 64;
  for (size_t i = 0; ok && i < 32; ++i) {
    const int high = nibble(hex[2 * i]), low = nibble(hex[2 * i + 1]);
    ok = high >= 0 && low >= 0;
    digest[i] = static_cast<uint8_t>(high * 16 + low);
  }
  if (!ok) return ctx.Error(field, "expected 64 hex digits (the sha256 of the token: sha256sum, not the token)");
  return digest;
}

Result<std::optional<RateLimit>> ReadRate(const YamlContext& ctx, const Field& field) {
  if (field.node.IsScalar() && field.node.Scalar() == "none") return std::optional<RateLimit>();
  ASSIGN_OR_RETURN(std::vector<Field> entries,
                   rules_internal::MapFields(ctx, field, "a map like {per_second: 100, burst: 200}, or none"));
  RateLimit rate;
  bool has_rate = false;
  for (const Field& entry : entries) {
    if (entry.key == "per_second") {
      ASSIGN_OR_RETURN(rate.per_second, rules_internal::ReadNumberInRange(ctx, entry, 1e-6, 1e9));
      has_rate = true;
    } else if (entry.key == "burst") {
      ASSIGN_OR_RETURN(rate.burst, rules_internal::ReadNumberInRange(ctx, entry, 1, 1e9));
    } else {
      return rules_internal::UnknownKey(ctx, entry, {"per_second", "burst"});
    }
  }
  if (!has_rate) return ctx.Error(field, "missing per_second");
  if (rate.burst == 0) rate.burst = std::max(1.0, rate.per_second);
  return std::optional<RateLimit>(rate);
}

Result<ApiKey> ReadKey(const YamlContext& ctx, const Field& item) {
  ASSIGN_OR_RETURN(std::vector<Field> entries, rules_internal::MapFields(ctx, item, "a map with id and sha256"));
  ApiKey key;
  bool has_digest = false;
  for (const Field& entry : entries) {
    if (entry.key == "id") {
      ASSIGN_OR_RETURN(key.id, rules_internal::ReadString(ctx, entry));
    } else if (entry.key == "sha256") {
      ASSIGN_OR_RETURN(key.digest, ReadDigest(ctx, entry));
      has_digest = true;
    } else if (entry.key == "datasets") {
      ASSIGN_OR_RETURN(std::vector<Field> names, rules_internal::ListItems(ctx, entry, "a list of dataset names"));
      key.datasets.emplace();
      for (const Field& name : names) {
        ASSIGN_OR_RETURN(std::string dataset, rules_internal::ReadString(ctx, name));
        key.datasets->push_back(std::move(dataset));
      }
    } else if (entry.key == "rate") {
      ASSIGN_OR_RETURN(std::optional<RateLimit> rate, ReadRate(ctx, entry));
      key.rate = rate.value_or(RateLimit{});  // none: unlimited
    } else {
      return rules_internal::UnknownKey(ctx, entry, {"id", "sha256", "datasets", "rate"});
    }
  }
  if (key.id.empty()) return ctx.Error(item, "missing id");
  if (!has_digest) return ctx.Error(item, "missing sha256");
  return key;
}

Status ReadLimits(const YamlContext& ctx, const Field& field, ServiceLimits* limits) {
  ASSIGN_OR_RETURN(std::vector<Field> entries, rules_internal::MapFields(ctx, field));
  constexpr int64_t kMaxInt = std::numeric_limits<int32_t>::max();
  for (const Field& entry : entries) {
    const std::string& k = entry.key;
    if (k == "max_body_bytes") {
      ASSIGN_OR_RETURN(limits->max_body_bytes, rules_internal::ReadWholeNumber(ctx, entry, 1024, int64_t{1} << 40));
    } else if (k == "request_timeout_s") {
      ASSIGN_OR_RETURN(limits->request_timeout_s, rules_internal::ReadNumberInRange(ctx, entry, 0.01, 86400));
    } else if (k == "max_concurrent") {
      ASSIGN_OR_RETURN(int64_t n, rules_internal::ReadWholeNumber(ctx, entry, 1, 100000));
      limits->max_concurrent = static_cast<int>(n);
    } else if (k == "http_threads") {
      ASSIGN_OR_RETURN(int64_t n, rules_internal::ReadWholeNumber(ctx, entry, 1, 4096));
      limits->http_threads = static_cast<int>(n);
    } else if (k == "max_queued_connections") {
      ASSIGN_OR_RETURN(int64_t n, rules_internal::ReadWholeNumber(ctx, entry, 1, 1000000));
      limits->max_queued_connections = static_cast<int>(n);
    } else if (k == "max_connections") {
      ASSIGN_OR_RETURN(int64_t n, rules_internal::ReadWholeNumber(ctx, entry, 1, 1000000));
      limits->max_connections = static_cast<int>(n);
    } else if (k == "header_timeout_s") {
      ASSIGN_OR_RETURN(limits->header_timeout_s, rules_internal::ReadNumberInRange(ctx, entry, 0.01, 3600));
    } else if (k == "rate") {
      ASSIGN_OR_RETURN(limits->rate, ReadRate(ctx, entry));
    } else if (k == "shutdown_grace_s") {
      ASSIGN_OR_RETURN(limits->shutdown_grace_s, rules_internal::ReadNumberInRange(ctx, entry, 0, 3600));
    } else if (k == "batch_cache") {
      ASSIGN_OR_RETURN(limits->batch_cache, rules_internal::ReadWholeNumber(ctx, entry, 0, kMaxInt));
    } else if (k == "telemetry_series") {
      ASSIGN_OR_RETURN(limits->telemetry_series, rules_internal::ReadWholeNumber(ctx, entry, 1, kMaxInt));
    } else if (k == "validate_threads") {
      ASSIGN_OR_RETURN(int64_t n, rules_internal::ReadWholeNumber(ctx, entry, 1, 1024));
      limits->validate_threads = static_cast<int>(n);
    } else if (k == "reload_interval_s") {
      ASSIGN_OR_RETURN(limits->reload_interval_s, rules_internal::ReadNumberInRange(ctx, entry, 0.01, 3600));
    } else if (k == "reload_settle_s") {
      ASSIGN_OR_RETURN(limits->reload_settle_s, rules_internal::ReadNumberInRange(ctx, entry, 0, 60));
    } else {
      return rules_internal::UnknownKey(
          ctx, entry,
          {"max_body_bytes", "request_timeout_s", "max_concurrent", "http_threads", "max_queued_connections", "max_connections",
           "header_timeout_s", "rate",
           "shutdown_grace_s", "batch_cache", "telemetry_series", "validate_threads", "reload_interval_s",
           "reload_settle_s"});
    }
  }
  return Status::OK();
}

Status ReadTls(const YamlContext& ctx, const Field& field, const std::string& base_dir, ServiceConfig* config) {
  ASSIGN_OR_RETURN(std::vector<Field> entries, rules_internal::MapFields(ctx, field, "a map with cert and key"));
  for (const Field& entry : entries) {
    if (entry.key != "cert" && entry.key != "key") return rules_internal::UnknownKey(ctx, entry, {"cert", "key"});
    ASSIGN_OR_RETURN(std::string path, rules_internal::ReadString(ctx, entry));
    std::filesystem::path resolved(path);
    if (resolved.is_relative() && !base_dir.empty()) resolved = std::filesystem::path(base_dir) / resolved;
    (entry.key == "cert" ? config->tls_cert : config->tls_key) = resolved.string();
  }
  if (config->tls_cert.empty() || config->tls_key.empty()) return ctx.Error(field, "needs both cert and key");
  return Status::OK();
}

Result<ServiceConfig> ReadDocument(const YamlContext& ctx, const YAML::Node& root, const std::string& base_dir) {
  ServiceConfig config;
  if (root.IsNull()) return config;
  ASSIGN_OR_RETURN(std::vector<Field> entries,
                   rules_internal::MapFields(ctx, rules_internal::RootField(root), "a map with keys, limits, tls, store, sources"));
  for (const Field& entry : entries) {
    if (entry.key == "keys") {
      ASSIGN_OR_RETURN(std::vector<Field> items, rules_internal::ListItems(ctx, entry, "a list of keys"));
      std::set<std::string> ids;
      std::map<std::array<uint8_t, 32>, std::string> id_of_digest;
      for (const Field& item : items) {
        ASSIGN_OR_RETURN(ApiKey key, ReadKey(ctx, item));
        if (!ids.insert(key.id).second) return ctx.Error(item, "key id '" + key.id + "' is given twice");
        // One token would match both keys, and only the first would count.
        auto [twin, fresh] = id_of_digest.emplace(key.digest, key.id);
        if (!fresh) return ctx.Error(item, "key '" + key.id + "' has the same sha256 as key '" + twin->second + "'");
        config.keys.push_back(std::move(key));
      }
    } else if (entry.key == "limits") {
      RETURN_IF_ERROR(ReadLimits(ctx, entry, &config.limits));
    } else if (entry.key == "tls") {
      RETURN_IF_ERROR(ReadTls(ctx, entry, base_dir, &config));
    } else if (entry.key == "store") {
      ASSIGN_OR_RETURN(std::vector<Field> store, rules_internal::MapFields(ctx, entry));
      for (const Field& option : store) {
        if (option.key != "metrics_sample") return rules_internal::UnknownKey(ctx, option, {"metrics_sample"});
        ASSIGN_OR_RETURN(config.metrics_sample, rules_internal::ReadNumberInRange(ctx, option, 0, 1));
      }
    } else if (entry.key == "alerts") {
      ASSIGN_OR_RETURN(config.alerts, rules_internal::LoadAlertTargets(ctx, entry));
    } else if (entry.key == "sources") {
      ASSIGN_OR_RETURN(std::vector<Field> sources, rules_internal::MapFields(ctx, entry, "a map of dataset: URI"));
      for (const Field& source : sources) {
        ASSIGN_OR_RETURN(std::string uri, rules_internal::ReadString(ctx, source));
        // delta:PATH (a local or s3://, gs:// table) has no "://" of its own. The check
        // reads the text only: InputScheme would probe each s3:// prefix for a _delta_log
        // over the network at start.
        const std::optional<std::string> scheme =
            uri.rfind("delta:", 0) == 0 ? std::optional<std::string>("delta") : UriScheme(uri);
        const std::vector<std::string> known = RegisteredSourceSchemes();
        if (!scheme || *scheme == "file" || std::find(known.begin(), known.end(), *scheme) == known.end())
          return ctx.Error(source, "expected a source URI such as postgresql://user@host/db?table=name, s3://bucket/key or "
                                       "delta:PATH, got '" +
                                       RedactUri(uri) + "'");
        config.sources[source.key] = uri;
      }
    } else {
      return rules_internal::UnknownKey(ctx, entry, {"keys", "limits", "tls", "store", "alerts", "sources"});
    }
  }
  return config;
}

}  // namespace

Result<ServiceConfig> ParseServiceConfig(const std::string& yaml_text, const std::string& name,
                                         const std::string& base_dir) {
  YamlContext ctx(name);
  ASSIGN_OR_RETURN(YAML::Node root, rules_internal::ParseYamlText(ctx, yaml_text));
  try {
    return ReadDocument(ctx, root, base_dir);
  } catch (const YAML::Exception& e) {
    return Status::Internal(name + ": reading the config failed: " + e.msg);
  }
}

Result<ServiceConfig> LoadServiceConfig(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, ReadFileText(path));
  return ParseServiceConfig(text, path, std::filesystem::path(path).parent_path().string());
}

}  // namespace griffin::server
