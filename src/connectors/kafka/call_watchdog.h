// Bounds librdkafka's blocking calls in time.
//
// librdkafka (Debian's 2.0.2) can block past a call's own timeout:
// rd_kafka_send_offsets_to_transaction waits forever when the group
// coordinator vanishes mid-call (librdkafka issue #5456: the coordinator
// request's timeout is never checked), and a handle whose call is stuck cannot
// be destroyed. Such a call cannot be cancelled, so a watchdog thread reports it:
//
//   CallWatchdog watchdog([](const std::string& line) { print(line); std::_Exit(3); });
//   {
//     CallWatchdog::Guard guard = watchdog.Watch("committing a transaction", 15000);
//     rd_kafka_commit_transaction(producer, 10000);   // the guard ends with the scope
//   }
//
// When a watched call is still running `limit_ms` after it began, `on_stuck`
// is called once, on the watchdog's thread, with "WHAT did not return within
// N s" (and the note set by SetNote, when there is one). Calls are watched one
// at a time (a Guard replaces the one before it), from the thread that runs
// the stream. A callback that returns lets the call go on (tests use that).
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace griffin::kafka {

class CallWatchdog {
 public:
  using OnStuck = std::function<void(const std::string& line)>;

  explicit CallWatchdog(OnStuck on_stuck);
  ~CallWatchdog();
  CallWatchdog(const CallWatchdog&) = delete;
  CallWatchdog& operator=(const CallWatchdog&) = delete;

  class Guard {
   public:
    Guard(Guard&& other) noexcept : watchdog_(other.watchdog_) { other.watchdog_ = nullptr; }
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;
    ~Guard() {
      if (watchdog_ != nullptr) watchdog_->Clear();
    }

   private:
    friend class CallWatchdog;
    explicit Guard(CallWatchdog* watchdog) : watchdog_(watchdog) {}
    CallWatchdog* watchdog_;
  };

  // Watches the call made while the returned guard lives.
  [[nodiscard]] Guard Watch(std::string what, int limit_ms);

  // Text appended to the report of a stuck call, e.g. the error a failed run
  // is about to return while its clients close ("" removes it).
  void SetNote(std::string note);

 private:
  using Clock = std::chrono::steady_clock;
  void Clear();
  void Loop();

  OnStuck on_stuck_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool watching_ = false, reported_ = false, quit_ = false;
  std::string what_, note_;
  int limit_ms_ = 0;
  Clock::time_point deadline_{};
  std::thread thread_;
};

}  // namespace griffin::kafka
