#include "connectors/kafka/call_watchdog.h"

#include <sstream>

namespace griffin::kafka {

CallWatchdog::CallWatchdog(OnStuck on_stuck) : on_stuck_(std::move(on_stuck)), thread_([this] { Loop(); }) {}

CallWatchdog::~CallWatchdog() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    quit_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

CallWatchdog::Guard CallWatchdog::Watch(std::string what, int limit_ms) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    watching_ = true;
    reported_ = false;
    what_ = std::move(what);
    limit_ms_ = limit_ms;
    deadline_ = Clock::now() + std::chrono::milliseconds(limit_ms);
  }
  changed_.notify_all();
  return Guard(this);
}

void CallWatchdog::SetNote(std::string note) {
  std::lock_guard<std::mutex> lock(mutex_);
  note_ = std::move(note);
}

void CallWatchdog::Clear() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    watching_ = false;
  }
  changed_.notify_all();
}

void CallWatchdog::Loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!quit_) {
    if (!watching_ || reported_) {
      changed_.wait(lock);
      continue;
    }
    if (Clock::now() < deadline_) {
      changed_.wait_until(lock, deadline_);
      continue;
    }
    reported_ = true;
    std::ostringstream line;
    line << what_ << " did not return within " << limit_ms_ / 1000.0 << " s";
    if (!note_.empty()) line << " (" << note_ << ")";
    std::string text = line.str();
    lock.unlock();
    on_stuck_(text);
    lock.lock();
  }
}

}  // namespace griffin::kafka
