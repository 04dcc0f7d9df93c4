#include "server/service_runner.h"

#include <pthread.h>
#include <signal.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

#include "server/flight_service.h"
#include "server/http_service.h"
#include "server/service_core.h"
#include "util/value_parse.h"
#include "util/count_of.h"

namespace griffin::server {
namespace {

void Log(const std::string& line) {
  std::fprintf(stderr, "griffin serve: %s\n", line.c_str());
  std::fflush(stderr);
}

// Blocks the signals the service waits for in every thread started after
// this, so sigwait() in the main thread receives them.
sigset_t BlockServiceSignals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  return signals;
}

}  // namespace

Status SplitHostPort(const std::string& text, const std::string& flag, std::string* host, int* port) {
  const size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) return Status::UsageError(flag + ": expected HOST:PORT, got '" + text + "'");
  *host = text.substr(0, colon);
  if (host->size() > 2 && host->front() == '[' && host->back() == ']') *host = host->substr(1, host->size() - 2);
  std::optional<int64_t> number = ParseInt64(text.substr(colon + 1));
  if (!number || *number < 0 || *number > 65535) return Status::UsageError(flag + ": bad port in '" + text + "'");
  *port = static_cast<int>(*number);
  return Status::OK();
}

Status RunService(const ServiceOptions& options) {
  std::string http_host, flight_host;
  int http_port = 0, flight_port = 0;
  RETURN_IF_ERROR(SplitHostPort(options.listen, "--listen", &http_host, &http_port));
  if (!options.flight.empty()) RETURN_IF_ERROR(SplitHostPort(options.flight, "--flight", &flight_host, &flight_port));
  ServiceCore::Options core_options;
  core_options.rules_dir = options.rules_dir;
  core_options.store_uri = options.store_uri;
  core_options.auth = !options.no_auth;
  if (!options.config_path.empty()) {
    ASSIGN_OR_RETURN(core_options.config, LoadServiceConfig(options.config_path));
  }
  const double grace = core_options.config.limits.shutdown_grace_s;

  const sigset_t signals = BlockServiceSignals();
  ASSIGN_OR_RETURN(std::unique_ptr<ServiceCore> core, ServiceCore::Create(std::move(core_options)));
  if (options.no_auth) Log("--no-auth: every request is accepted without a key");
  HttpService http(*core);
  RETURN_IF_ERROR(http.Bind(http_host, http_port));
  std::unique_ptr<FlightService> flight;
  if (!options.flight.empty()) {
    flight = std::make_unique<FlightService>(*core);
    RETURN_IF_ERROR(flight->Start(flight_host, flight_port));
  }
  std::thread serving([&http] { http.Serve(); });
  Log(std::string("listening on ") + (http.tls() ? "https://" : "http://") + http_host + ":" + std::to_string(http.port()));
  if (flight) {
    Log(std::string("flight on ") + (core->config().tls_cert.empty() ? "grpc://" : "grpc+tls://") + flight_host + ":" +
        std::to_string(flight->port()));
  }
  Log("ready (" + CountOf(static_cast<int64_t>(core->registry().All().size()), "dataset") + " from " + options.rules_dir + ", store " +
      core->StoreDescription() + ")");

  for (;;) {
    int signal_number = 0;
    if (sigwait(&signals, &signal_number) != 0) continue;
    if (signal_number == SIGHUP) {
      Log("SIGHUP: checking the rules directory");
      core->registry().Rescan();
      continue;
    }
    break;
  }

  Log("shutting down: no new connections; " + CountOf(http.in_flight(), "request") + " in flight, grace " +
      FormatDouble(grace) + " s");
  std::mutex mutex;
  std::condition_variable done;
  bool drained = false;
  std::thread drainer([&] {
    http.Drain();
    if (flight) flight->Shutdown(grace);
    std::lock_guard<std::mutex> lock(mutex);
    drained = true;
    done.notify_all();
  });
  {
    std::unique_lock<std::mutex> lock(mutex);
    done.wait_for(lock, std::chrono::microseconds(static_cast<int64_t>(grace * 1e6)), [&] { return drained; });
    if (!drained) {
      Log(CountOf(http.in_flight(), "request") + " still running after the " + FormatDouble(grace) +
          " s grace; writing the queued runs and exiting");
      core->Close();
      std::fflush(nullptr);
      std::_Exit(3);
    }
  }
  drainer.join();
  serving.join();
  core->Close();
  Log("stopped: " + CountOf(http.received(), "HTTP request") + " received, " + std::to_string(http.answered()) +
      " answered; " + core->RecorderSummary());
  return Status::OK();
}

}  // namespace griffin::server
