// The configuration file of `griffin serve --config FILE` (YAML): API keys,
// limits, TLS and run-store sampling. docs/service.md describes every key.
//
//   keys:
//     - id: trainer                      # recorded with every run the key makes
//       sha256: 9f86d0...                # sha256 hex of the token (never the token)
//       datasets: [steps]                # optional: the only datasets it may use
//       rate: {per_second: 50, burst: 100}
//   limits: {max_body_bytes: 33554432, request_timeout_s: 30, max_concurrent: 32,
//            http_threads: 32, rate: {per_second: 200, burst: 400}, ...}
//   tls: {cert: server.crt, key: server.key}   # paths relative to this file
//   store: {metrics_sample: 0.01}
//   sources: {orders: "postgresql://svc@db/shop?table=sales.orders"}  # datasets read from a database
//
// Errors are one line naming the file, line and key ("serve.yaml:4:
// keys[0].sha256: expected 64 hex digits").
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "alerts/alert_target.h"
#include "util/status.h"

namespace griffin::server {

// A token bucket: `burst` requests at once, refilled at `per_second`.
struct RateLimit {
  double per_second = 0;
  double burst = 0;
};

struct ApiKey {
  std::string id;
  std::array<uint8_t, 32> digest{};                // sha256 of the token
  std::optional<std::vector<std::string>> datasets;  // nullopt: every dataset
  std::optional<RateLimit> rate;                   // nullopt: limits.rate
};

struct ServiceLimits {
  int64_t max_body_bytes = 32 << 20;   // larger bodies get 413; memory ~ this x max_concurrent
  double request_timeout_s = 30;       // socket reads/writes, and a validation's running time
  int max_concurrent = 32;             // requests handled at once (besides /healthz); more get 503
  int http_threads = 32;               // connections served at once
  int max_queued_connections = 256;    // requests whose headers arrived, waiting for a thread; more get 503
  int max_connections = 10000;         // open client connections (capped by the descriptor limit); more get 503
  double header_timeout_s = 10;        // a request's headers must arrive within this (408)
  std::optional<RateLimit> rate = RateLimit{200, 400};  // per key, for keys without their own; nullopt: none
  double shutdown_grace_s = 10;        // SIGTERM: how long in-flight requests may take to finish
  int64_t batch_cache = 100000;        // batch_hash scores remembered (least recently used dropped)
  int64_t telemetry_series = 10000;    // (dataset, key, run) loss histories kept for spike checks
  int validate_threads = 1;            // engine worker threads per request
  double reload_interval_s = 0.5;      // how often the rules directory is checked for changes
  double reload_settle_s = 1.0;        // a changed rule file is read once its mtime is this old
};

struct ServiceConfig {
  std::vector<ApiKey> keys;
  ServiceLimits limits;
  std::string tls_cert, tls_key;       // both set, or both empty (plain HTTP and gRPC)
  double metrics_sample = 0.01;        // fraction of POST /metrics with records recorded as runs
  std::vector<AlertTarget> alerts;     // `alerts:` (docs/alerts.md): for every validation run
  // Datasets the service reads itself on request (POST .../validate?source=true):
  // dataset name -> a source URI of a registered adapter (a database table).
  std::map<std::string, std::string> sources;
};

// Reads a config file; relative TLS paths are taken from the file's folder.
Result<ServiceConfig> LoadServiceConfig(const std::string& path);
// The same from text; `name` names it in errors.
Result<ServiceConfig> ParseServiceConfig(const std::string& yaml_text, const std::string& name,
                                         const std::string& base_dir);

}  // namespace griffin::server
