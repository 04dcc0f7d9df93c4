#include "sinks/background_writer.h"

#include <new>
#include <system_error>

namespace griffin {

BackgroundWriter::BackgroundWriter(size_t max_queued) : max_queued_(max_queued == 0 ? 1 : max_queued) {
  try {
    thread_ = std::thread([this] { Loop(); });
  } catch (const std::system_error&) {  // no thread: Submit runs tasks on the caller
  } catch (const std::bad_alloc&) {
  }
}

BackgroundWriter::~BackgroundWriter() { Stop(); }

void BackgroundWriter::Loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    changed_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    std::function<Status()> task = std::move(queue_.front());
    queue_.pop_front();
    running_ = true;
    lock.unlock();
    Status status = task();
    lock.lock();
    running_ = false;
    if (!status.ok() && error_.ok()) {
      error_ = std::move(status);
      queue_.clear();
    }
    changed_.notify_all();
  }
}

Status BackgroundWriter::Submit(std::function<Status()> task) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!error_.ok()) return error_;
  if (stopping_) return Status::Internal("write after the writer stopped");
  if (!thread_.joinable()) {
    lock.unlock();
    Status status = task();
    lock.lock();
    if (!status.ok() && error_.ok()) error_ = status;
    return error_;
  }
  changed_.wait(lock, [&] { return queue_.size() < max_queued_ || !error_.ok(); });
  if (!error_.ok()) return error_;
  queue_.push_back(std::move(task));
  changed_.notify_all();
  return Status::OK();
}

Status BackgroundWriter::Wait() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return stopping_ || (queue_.empty() && !running_); });
  return error_;
}

void BackgroundWriter::Stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
    queue_.clear();
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace griffin
