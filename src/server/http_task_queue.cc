#include "server/http_task_queue.h"

namespace griffin::server {
namespace {

thread_local bool t_overflow = false;

}  // namespace

HttpTaskQueue::HttpTaskQueue(int threads, int max_queued) : max_queued_(static_cast<size_t>(std::max(1, max_queued))) {
  for (int i = 0; i < std::max(1, threads); ++i) threads_.emplace_back([this] { Work(false); });
  threads_.emplace_back([this] { Work(true); });
}

HttpTaskQueue::~HttpTaskQueue() { shutdown(); }

bool HttpTaskQueue::IsOverflowThread() { return t_overflow; }

void HttpTaskQueue::enqueue(std::function<void()> fn) {
  std::unique_lock<std::mutex> lock(mutex_);
  room_.wait(lock, [this] { return stopping_ || jobs_.size() < max_queued_ || overflow_.size() < max_queued_; });
  if (jobs_.size() < max_queued_ || stopping_) jobs_.push_back(std::move(fn));
  else overflow_.push_back(std::move(fn));
  work_.notify_all();
}

void HttpTaskQueue::Work(bool overflow) {
  t_overflow = overflow;
  std::deque<std::function<void()>>& queue = overflow ? overflow_ : jobs_;
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      work_.wait(lock, [&] { return stopping_ || !queue.empty(); });
      if (queue.empty()) return;  // stopping, and nothing left to serve
      job = std::move(queue.front());
      queue.pop_front();
      room_.notify_all();
    }
    job();
  }
}

void HttpTaskQueue::shutdown() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
  }
  work_.notify_all();
  room_.notify_all();
  for (std::thread& thread : threads_) thread.join();
  threads_.clear();
}

}  // namespace griffin::server
