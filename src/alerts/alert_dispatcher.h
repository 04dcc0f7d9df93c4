// Sends a run's alerts (docs/alerts.md) on a background thread, so that
// validation never waits for a webhook: each target whose events the run
// raised gets one POST, retried with doubling backoff on a network error,
// 408, 429 or 5xx, within the target's deadline; a duplicate of an alert
// delivered less than dedup_s ago is suppressed; every outcome (delivered,
// failed, suppressed) is recorded in the run store when there is one. URLs
// are shown and stored redacted (util/url_redact.h).
//
//   AlertDispatcher alerts(store_uri, [](const std::string& line) { ... });
//   alerts.Submit(AlertJob{targets, report});     // returns at once
//   ... print the report ...
//   alerts.Close(steady_clock::now() + 30s);       // bounded wait
//
// Thread-safe. The worker opens its own store connection (a RunStore is
// not shared across threads).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "alerts/alert_target.h"
#include "report/report.h"
#include "store/alert_log.h"
#include "store/run_store.h"

namespace griffin {

struct AlertJob {
  std::vector<AlertTarget> targets;
  Report report;  // the run's report (its violations are not needed)
};

// Sends one target's alert for `job` now, on the calling thread, and
// returns what was recorded; nullopt when the run raised none of its
// events. `store` (may be null) gives the previous score; `log` (may be
// null) the duplicates, and gets the record. `wait` sleeps for a backoff and returns false when the
// sending must stop (cancelled).
std::optional<AlertDeliveryRecord> SendAlert(const AlertTarget& target, const AlertJob& job, RunStore* store,
                                             AlertLog* log, std::chrono::steady_clock::time_point deadline,
                                             const std::function<bool(double)>& wait);

class AlertDispatcher {
 public:
  using Clock = std::chrono::steady_clock;
  // `store_uri` empty: nothing is recorded and nothing deduplicated. `log`
  // gets one line for each alert that was not delivered (never a URL in
  // the clear).
  AlertDispatcher(std::string store_uri, std::function<void(const std::string&)> log, size_t capacity = 256);
  ~AlertDispatcher();

  // Queues a run's alerts; false when the queue is full or closed.
  bool Submit(AlertJob job);
  // Takes no more jobs and waits for the queued ones until `deadline`; then
  // no new attempt starts (one under way ends within its timeout) and the
  // rest is dropped (logged). Returns every delivery record made.
  std::vector<AlertDeliveryRecord> Close(Clock::time_point deadline);

 private:
  void Run();
  bool Wait(double seconds);  // false when cancelled

  const std::string store_uri_;
  const std::function<void(const std::string&)> log_;
  const size_t capacity_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<AlertJob> queue_;
  std::vector<AlertDeliveryRecord> records_;
  bool closing_ = false, busy_ = false;
  std::atomic<bool> cancelled_{false};
  std::thread worker_;
};

}  // namespace griffin
