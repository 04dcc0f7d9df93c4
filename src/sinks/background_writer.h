// Internal to sinks/: one thread that runs a sink's write tasks in the order
// they were submitted (the Parquet/Arrow sink's row-group encoding), so that
// the thread appending in order (the merger) only queues them. At most
// `max_queued` tasks wait; Submit blocks beyond that (backpressure bounds the
// memory held). The first failed task's Status sticks: later tasks are
// dropped and Submit/Wait return it.
//
//   BackgroundWriter writer(4);
//   RETURN_IF_ERROR(writer.Submit([&] { return WriteGroup(); }));
//   RETURN_IF_ERROR(writer.Wait());   // everything submitted has run
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "util/status.h"

namespace griffin {

class BackgroundWriter {
 public:
  explicit BackgroundWriter(size_t max_queued);
  ~BackgroundWriter();  // Stop()
  BackgroundWriter(const BackgroundWriter&) = delete;
  BackgroundWriter& operator=(const BackgroundWriter&) = delete;

  // Queues `task`; without a thread (none could start) runs it here.
  Status Submit(std::function<Status()> task);
  // Waits until every submitted task has run; the first error, if any.
  Status Wait();
  // Drops the queued tasks, waits for the running one, ends the thread. Idempotent.
  void Stop();

 private:
  void Loop();

  const size_t max_queued_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<Status()>> queue_;
  bool running_ = false;  // a task is running
  bool stopping_ = false;
  Status error_;
  std::thread thread_;
};

}  // namespace griffin
