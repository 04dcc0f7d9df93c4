#include "alerts/alert_dispatcher.h"

#include <algorithm>
#include <cstdlib>

#include "alerts/alert_message.h"
#include "alerts/webhook_post.h"
#include "store/sql_connection.h"
#include "util/random_hex.h"
#include "util/url_redact.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

// The newest complete earlier run's quality score of the dataset.
std::optional<double> PreviousScore(RunStore* store, const Report& report) {
  if (store == nullptr) return std::nullopt;
  Result<std::vector<RunSummary>> runs = store->History(report.dataset, 20);
  if (!runs.ok()) return std::nullopt;
  for (const RunSummary& run : *runs)
    if (run.run_id != report.run_id && run.status == "complete") return run.quality_score;
  return std::nullopt;
}

double SecondsLeft(std::chrono::steady_clock::time_point deadline) {
  return std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
}

}  // namespace

std::optional<AlertDeliveryRecord> SendAlert(const AlertTarget& target, const AlertJob& job, RunStore* store,
                                             AlertLog* log, std::chrono::steady_clock::time_point deadline,
                                             const std::function<bool(double)>& wait) {
  const Report& report = job.report;
  const std::optional<double> previous = PreviousScore(store, report);
  const std::vector<AlertEvent> events = RaisedEvents(target, report, previous);
  if (events.empty()) return std::nullopt;
  AlertDeliveryRecord record;
  record.delivery_id = RandomHex(32);
  record.run_id = report.run_id;
  record.dataset = report.dataset;
  record.format = target.format == AlertTarget::Format::kSlack ? "slack" : "json";
  record.events = EventList(events);
  record.created_at = UtcNowIso8601();
  std::string url = target.url;
  if (!target.url_env.empty()) {
    const char* value = std::getenv(target.url_env.c_str());
    url = value != nullptr ? value : "";
  }
  record.url = target.url_env.empty() ? RedactSecretUrl(url) : "$" + target.url_env;
  const auto finish = [&](const char* status, std::string error) {
    record.status = status;
    record.error = std::move(error);
    record.finished_at = UtcNowIso8601();
    if (log != nullptr) {
      Status recorded = log->Record(record);
      if (!recorded.ok()) record.error += (record.error.empty() ? "" : "; ") + ("not recorded: " + recorded.message());
    }
    return record;
  };
  if (url.empty()) return finish("failed", "environment variable " + target.url_env + " is not set");
  if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0)
    return finish("failed", "$" + target.url_env + " is not an http:// or https:// URL");
  record.dedup_key = AlertDedupKey(url, report, events);
  if (log != nullptr && target.dedup_s > 0) {
    Result<bool> seen = log->DeliveredSince(record.dedup_key, UtcNowIso8601(-static_cast<int64_t>(target.dedup_s)));
    if (seen.ok() && *seen) return finish("suppressed", "the same alert was delivered less than " +
                                                            std::to_string(static_cast<int64_t>(target.dedup_s)) +
                                                            " s ago");
  }
  const std::string body = AlertBody(target.format, report, events, previous);
  double backoff = target.backoff_s;
  std::string error;
  for (int attempt = 0; attempt <= target.retries; ++attempt) {
    const double left = SecondsLeft(deadline);
    if (attempt > 0 && left <= 0.05) {
      error += " (deadline_s " + FormatDoubleBrief(target.deadline_s) + " reached)";
      break;
    }
    WebhookAnswer answer = PostJson(url, body, attempt == 0 ? target.timeout_s : std::min(target.timeout_s, left));
    record.attempts = attempt + 1;
    record.http_status = answer.http_status;
    if (answer.ok()) return finish("delivered", "");
    error = answer.error;
    if (!answer.retryable() || attempt == target.retries) break;
    if (SecondsLeft(deadline) <= backoff || !wait(backoff)) {
      error += " (deadline_s " + FormatDoubleBrief(target.deadline_s) + " reached)";
      break;
    }
    backoff *= 2;
  }
  return finish("failed", error);
}

AlertDispatcher::AlertDispatcher(std::string store_uri, std::function<void(const std::string&)> log, size_t capacity)
    : store_uri_(std::move(store_uri)), log_(std::move(log)), capacity_(capacity) {
  worker_ = std::thread([this] { Run(); });
}

AlertDispatcher::~AlertDispatcher() { Close(Clock::now()); }

bool AlertDispatcher::Submit(AlertJob job) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (closing_ || queue_.size() >= capacity_) return false;
  job.report.violations.clear();
  queue_.push_back(std::move(job));
  changed_.notify_all();
  return true;
}

bool AlertDispatcher::Wait(double seconds) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return cancelled_.load(); });
  return !cancelled_.load();
}

void AlertDispatcher::Run() {
  std::unique_ptr<RunStore> store;
  std::unique_ptr<AlertLog> log;
  bool store_tried = false;
  for (;;) {
    AlertJob job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [this] { return !queue_.empty() || closing_; });
      if (queue_.empty() || cancelled_) break;
      job = std::move(queue_.front());
      queue_.pop_front();
      busy_ = true;
    }
    if (!store_tried && !store_uri_.empty()) {
      store_tried = true;
      Result<std::unique_ptr<RunStore>> opened = OpenRunStore(store_uri_);
      Result<std::unique_ptr<AlertLog>> opened_log =
          opened.ok() ? AlertLog::Open(store_uri_) : Result<std::unique_ptr<AlertLog>>(opened.status());
      if (opened_log.ok()) {
        store = std::move(opened).value();
        log = std::move(opened_log).value();
      } else {
        log_("alerts are not recorded: " + opened_log.status().message());
      }
    }
    for (const AlertTarget& target : job.targets) {
      if (cancelled_) break;
      const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                               std::chrono::duration<double>(target.deadline_s));
      std::optional<AlertDeliveryRecord> record =
          SendAlert(target, job, store.get(), log.get(), deadline, [this](double s) { return Wait(s); });
      if (!record) continue;
      if (record->status == "failed") {
        log_("alert to " + record->url + " (" + record->events + ") not delivered after " +
             std::to_string(record->attempts) + " attempt" + (record->attempts == 1 ? "" : "s") + ": " +
             record->error + "; the run's verdict stands");
      }
      std::lock_guard<std::mutex> lock(mutex_);
      records_.push_back(std::move(*record));
    }
    std::lock_guard<std::mutex> lock(mutex_);
    busy_ = false;
    changed_.notify_all();
  }
  std::lock_guard<std::mutex> lock(mutex_);
  busy_ = false;
  changed_.notify_all();
}

std::vector<AlertDeliveryRecord> AlertDispatcher::Close(Clock::time_point deadline) {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    closing_ = true;
    changed_.notify_all();
    changed_.wait_until(lock, deadline, [this] { return queue_.empty() && !busy_; });
    if (!queue_.empty() || busy_) {
      if (!queue_.empty()) log_(std::to_string(queue_.size()) + " run(s)' alerts were not sent: shutting down");
      queue_.clear();
      cancelled_ = true;
      changed_.notify_all();
    }
  }
  if (worker_.joinable()) worker_.join();
  std::lock_guard<std::mutex> lock(mutex_);
  return records_;
}

}  // namespace griffin
