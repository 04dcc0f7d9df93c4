// A worker pool with ordered result delivery: the calling thread submits
// chunks with increasing sequence numbers and takes their results back in
// that order; `threads` workers run `work` on them meanwhile. Used by the
// engine (decode + evaluate) and the profiler (decode + profile).
//
//   OrderedPipeline<Result<X>> pipeline([](Chunk& c) { return Work(c); }, threads);
//   pipeline.Submit(0, std::move(chunk));
//   Result<X> x = pipeline.Take(0);
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "io/input_source.h"

namespace griffin {

template <typename R>
class OrderedPipeline {
 public:
  // Starts up to `threads` workers; a system out of threads (std::system_error,
  // or std::bad_alloc for their memory) leaves the rest unstarted: started()
  // says how many run.
  OrderedPipeline(std::function<R(Chunk&)> work, int threads) : work_(std::move(work)) {
    try {
      for (int i = 0; i < threads; ++i) workers_.emplace_back([this] { WorkerLoop(); });
    } catch (const std::system_error& e) {
      start_error_ = e.what();
    } catch (const std::bad_alloc& e) {  // no room for another thread's stack or state
      start_error_ = e.what();
    }
  }
  size_t started() const { return workers_.size(); }
  const std::string& start_error() const { return start_error_; }
  ~OrderedPipeline() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    work_ready_.notify_all();
    for (auto& worker : workers_) worker.join();
  }

  void Submit(int64_t sequence, std::unique_ptr<Chunk> chunk) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.push_back({sequence, std::move(chunk)});
    }
    work_ready_.notify_one();
  }

  // Blocks until the result of `sequence` is ready.
  R Take(int64_t sequence) {
    std::unique_lock<std::mutex> lock(mutex_);
    result_ready_.wait(lock, [&] { return results_.count(sequence) > 0; });
    auto node = results_.extract(sequence);
    return std::move(node.mapped());
  }

 private:
  struct Task {
    int64_t sequence;
    std::unique_ptr<Chunk> chunk;
  };

  void WorkerLoop() {
    while (true) {
      Task task;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        work_ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;
        task = std::move(queue_.front());
        queue_.pop_front();
      }
      R result = work_(*task.chunk);
      task.chunk.reset();
      {
        std::lock_guard<std::mutex> lock(mutex_);
        results_.emplace(task.sequence, std::move(result));
      }
      result_ready_.notify_all();
    }
  }

  std::function<R(Chunk&)> work_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable work_ready_, result_ready_;
  std::deque<Task> queue_;
  std::map<int64_t, R> results_;
  bool stopping_ = false;
  std::string start_error_;
};

}  // namespace griffin
