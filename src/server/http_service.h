// The HTTP JSON API of `griffin serve` on cpp-httplib (docs/openapi.yaml):
//
//   GET  /healthz                          no key needed
//   GET  /metrics                          Prometheus text
//   POST /metrics                          the training quality score
//   POST /v1/datasets/{dataset}/validate   CSV, TSV, JSON lines or Arrow IPC -> the JSON report
//   GET  /v1/datasets, GET /v1/runs?dataset=...&limit=...
//
// Every request but /healthz needs "Authorization: Bearer KEY" (401), passes
// the key's rate limit (429 + Retry-After) and the max_concurrent limit (503
// + Retry-After). Request bodies are read only after that, at most
// max_body_bytes (413). Errors are {"error": "one line"}.
//
// Shutdown: Drain() stops accepting and answers every request already
// accepted (with "Connection: close"); it returns once Serve() has returned.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "server/service_core.h"
#include "util/status.h"

namespace griffin::server {

class HttpService {
 public:
  explicit HttpService(ServiceCore& core);
  ~HttpService();

  // Binds host:port (port 0: a free port); HTTPS when the config has TLS files.
  Status Bind(const std::string& host, int port);
  int port() const;
  bool tls() const;
  // Accepts and serves until Drain(); run it on its own thread.
  void Serve();
  // Stops accepting; every accepted connection's pending request is still
  // answered. Blocks until Serve() has returned.
  void Drain();

  int64_t received() const;   // requests read (their headers), malformed ones included
  int64_t answered() const;   // responses written
  int64_t in_flight() const;  // requests being handled now

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace griffin::server
