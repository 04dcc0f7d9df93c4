// Runs `griffin serve` until SIGTERM or SIGINT: loads the rules directory,
// starts the HTTP API (and Arrow Flight when asked), reloads rules on change
// and on SIGHUP, and shuts down gracefully: stop accepting, answer every
// accepted request within limits.shutdown_grace_s, write every queued run.
//
// On stderr, one line each: "griffin serve: listening on http://HOST:PORT",
// "griffin serve: flight on grpc://HOST:PORT" (grpc+tls:// with TLS),
// "griffin serve: ready", then reloads, refusals and the shutdown.
#pragma once

#include <string>

#include "util/status.h"

namespace griffin::server {

struct ServiceOptions {
  std::string rules_dir;
  std::string listen = "127.0.0.1:8080";   // HOST:PORT; port 0 picks a free one
  std::string flight;                      // HOST:PORT, empty: no Flight service
  std::string store_uri;                   // empty: no run store
  std::string config_path;                 // empty: defaults (then no_auth is required)
  bool no_auth = false;
};

// Blocks until shutdown and returns OK after a graceful one. Errors before
// serving (bad config, rules, ports, store) are UsageError, RuleError or
// StoreError. When accepted requests are still running after the grace
// period, the queued runs are written and the process exits with status 3.
Status RunService(const ServiceOptions& options);

// "HOST:PORT" or "[V6]:PORT" into its parts; a UsageError naming `flag`.
Status SplitHostPort(const std::string& text, const std::string& flag, std::string* host, int* port);

}  // namespace griffin::server
