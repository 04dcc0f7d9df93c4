// The connection queue of the HTTP server (cpp-httplib's TaskQueue): a fixed
// pool of `threads` workers, each serving one connection at a time, and at
// most `max_queued` accepted connections waiting for one. Past that, a
// connection goes to a single overflow thread that answers 503 right away
// (IsOverflowThread() is true there; the request handler checks it). When the
// overflow queue is full too, the accepting thread waits: new connections
// then wait in the kernel's listen backlog, so memory stays bounded.
// shutdown() lets the workers finish every queued connection, then joins them.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include <httplib.h>

namespace griffin::server {

class HttpTaskQueue : public httplib::TaskQueue {
 public:
  HttpTaskQueue(int threads, int max_queued);
  ~HttpTaskQueue() override;

  void enqueue(std::function<void()> fn) override;
  void shutdown() override;

  // True on the overflow thread.
  static bool IsOverflowThread();

 private:
  void Work(bool overflow);

  const size_t max_queued_;
  std::mutex mutex_;
  std::condition_variable work_, room_;
  std::deque<std::function<void()>> jobs_, overflow_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace griffin::server
