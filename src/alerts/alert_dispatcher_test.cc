// Alerts against a real local HTTP receiver (cpp-httplib) that fails, then
// succeeds; a URL that is down; duplicates; the store records every outcome.
#include "alerts/alert_dispatcher.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <thread>

#include "store/store_test_util.h"

namespace griffin {
namespace {

using Clock = std::chrono::steady_clock;

// A receiver on 127.0.0.1 that answers 503 to its first `failures` POSTs.
class Receiver {
 public:
  explicit Receiver(int failures, int delay_ms = 0) : failures_(failures) {
    server_.Post("/hook", [this, delay_ms](const httplib::Request& request, httplib::Response& response) {
      if (delay_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
      std::lock_guard<std::mutex> lock(mutex_);
      bodies_.push_back(request.body);
      response.status = static_cast<int>(bodies_.size()) <= failures_ ? 503 : 200;
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~Receiver() {
    server_.stop();
    thread_.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/hook?token=SECRET"; }
  std::vector<std::string> bodies() {
    std::lock_guard<std::mutex> lock(mutex_);
    return bodies_;
  }

 private:
  httplib::Server server_;
  int failures_;
  int port_ = 0;
  std::thread thread_;
  std::mutex mutex_;
  std::vector<std::string> bodies_;
};

AlertJob FailedJob(const std::string& url) {
  AlertJob job;
  AlertTarget target;
  target.url = url;
  target.backoff_s = 0.05;
  target.timeout_s = 2;
  job.targets.push_back(target);
  job.report.dataset = "orders";
  job.report.run_id = "run-1";
  job.report.passed = false;
  job.report.quality_score = 0.5;
  return job;
}

bool NoWaitLimit(double seconds) {
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  return true;
}

TEST(AlertDispatcher, RetriedUntilDeliveredThenDeduplicated) {
  store_test::TempDir dir;
  auto store = OpenRunStore(dir.path() + "/s.db");
  ASSERT_TRUE(store.ok()) << store.status().message();
  auto log = AlertLog::Open(dir.path() + "/s.db");
  ASSERT_TRUE(log.ok()) << log.status().message();
  Receiver receiver(/*failures=*/2);
  const AlertJob job = FailedJob(receiver.url());
  auto record = SendAlert(job.targets[0], job, store->get(), log->get(), Clock::now() + std::chrono::seconds(10), NoWaitLimit);
  ASSERT_TRUE(record.has_value());
  EXPECT_EQ(record->status, "delivered") << record->error;
  EXPECT_EQ(record->attempts, 3);
  EXPECT_EQ(record->http_status, 200);
  EXPECT_EQ(record->url, "http://127.0.0.1:" + receiver.url().substr(17, receiver.url().find('/', 17) - 17) +
                             "/hook?…");
  ASSERT_EQ(receiver.bodies().size(), 3u);
  EXPECT_NE(receiver.bodies()[2].find("\"events\": [\"failure\"]"), std::string::npos);

  // The same alert again: suppressed, nothing sent; recorded both times.
  auto again = SendAlert(job.targets[0], job, store->get(), log->get(), Clock::now() + std::chrono::seconds(10), NoWaitLimit);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->status, "suppressed");
  EXPECT_EQ(receiver.bodies().size(), 3u);
  auto recorded = (*log)->ForRun("run-1");
  ASSERT_TRUE(recorded.ok()) << recorded.status().message();
  ASSERT_EQ(recorded->size(), 2u);
  for (const AlertDeliveryRecord& r : *recorded) EXPECT_EQ(r.url.find("SECRET"), std::string::npos);

  // A run that raised nothing sends nothing.
  AlertJob passed = job;
  passed.report.passed = true;
  passed.report.quality_score = 1;
  EXPECT_FALSE(SendAlert(job.targets[0], passed, store->get(), log->get(), Clock::now(), NoWaitLimit).has_value());
}

TEST(AlertDispatcher, ADownUrlFailsWithinItsDeadlineAndIsLogged) {
  int port = 0;
  {
    Receiver gone(0);
    port = std::stoi(gone.url().substr(17));
  }  // stopped: nothing listens there now
  AlertJob job = FailedJob("http://127.0.0.1:" + std::to_string(port) + "/hook?token=SECRET");
  job.targets[0].retries = 2;
  std::vector<std::string> lines;
  std::mutex mutex;
  AlertDispatcher dispatcher("", [&](const std::string& line) {
    std::lock_guard<std::mutex> lock(mutex);
    lines.push_back(line);
  });
  const auto started = Clock::now();
  ASSERT_TRUE(dispatcher.Submit(job));
  std::vector<AlertDeliveryRecord> records = dispatcher.Close(Clock::now() + std::chrono::seconds(20));
  EXPECT_LT(Clock::now() - started, std::chrono::seconds(5));
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].status, "failed");
  EXPECT_EQ(records[0].attempts, 3);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("not delivered after 3 attempts"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("the run's verdict stands"), std::string::npos);
  EXPECT_EQ(lines[0].find("SECRET"), std::string::npos) << lines[0];
}

TEST(AlertDispatcher, CloseIsBoundedWhenTheReceiverHangs) {
  Receiver slow(/*failures=*/0, /*delay_ms=*/3000);
  AlertJob job = FailedJob(slow.url());
  job.targets[0].timeout_s = 0.5;
  job.targets[0].retries = 5;
  job.targets[0].backoff_s = 0.2;
  AlertDispatcher dispatcher("", [](const std::string&) {});
  ASSERT_TRUE(dispatcher.Submit(job));
  const auto started = Clock::now();
  std::vector<AlertDeliveryRecord> records = dispatcher.Close(Clock::now() + std::chrono::milliseconds(800));
  // The deadline, plus at most one attempt's timeout under way.
  EXPECT_LT(Clock::now() - started, std::chrono::milliseconds(1800));
  for (const AlertDeliveryRecord& r : records) EXPECT_EQ(r.status, "failed");
}

}  // namespace
}  // namespace griffin
