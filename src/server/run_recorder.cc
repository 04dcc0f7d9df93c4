#include "server/run_recorder.h"

#include <algorithm>
#include <cstdio>

namespace griffin::server {

Result<std::unique_ptr<RunRecorder>> RunRecorder::Open(const std::string& store_uri, size_t capacity) {
  ASSIGN_OR_RETURN(std::unique_ptr<RunStore> store, OpenRunStore(store_uri));
  return std::unique_ptr<RunRecorder>(new RunRecorder(std::move(store), capacity));
}

RunRecorder::RunRecorder(std::unique_ptr<RunStore> store, size_t capacity)
    : store_(std::move(store)), capacity_(std::max<size_t>(1, capacity)), description_(store_->Describe()) {
  writer_ = std::thread([this] { WriterLoop(); });
}

RunRecorder::~RunRecorder() { Close(); }

bool RunRecorder::Enqueue(Queued queued, bool wait, Clock::time_point deadline, bool is_run) {
  std::unique_lock<std::mutex> lock(mutex_);
  auto has_room = [this] { return closed_ || queue_.size() < capacity_; };
  if (wait) changed_.wait_until(lock, deadline, has_room);
  if (closed_ || queue_.size() >= capacity_) {
    if (is_run) dropped_.fetch_add(1);
    return false;
  }
  queue_.push_back(std::move(queued));
  ++queued_;
  changed_.notify_all();
  return true;
}

namespace {

// Begin and finish together: the run is recorded complete, or marked
// record_failed when the finish failed after it began, or not at all.
std::function<Status(RunStore&)> WriteRun(RunRecord run) {
  auto shared = std::make_shared<RunRecord>(std::move(run));
  return [shared](RunStore& store) -> Status {
    RETURN_IF_ERROR(store.BeginRun(shared->begin).status());
    Status finished = store.FinishRun(shared->begin.run_id, shared->finish);
    if (!finished.ok()) (void)store.MarkRecordFailed(shared->begin.run_id, finished.message());
    return finished;
  };
}

}  // namespace

bool RunRecorder::Record(RunRecord run, Clock::time_point deadline) {
  return Enqueue({WriteRun(std::move(run)), nullptr}, /*wait=*/true, deadline, /*is_run=*/true);
}

RunRecorder::Waited RunRecorder::RecordAndWait(RunRecord run, Clock::time_point deadline) {
  auto progress = std::make_shared<Progress>();
  if (!Enqueue({WriteRun(std::move(run)), progress}, /*wait=*/true, deadline, /*is_run=*/true)) return {};
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait_until(lock, deadline, [&] { return progress->done; });
  if (!progress->started) {  // still queued: the writer skips it
    progress->abandoned = true;
    return {};
  }
  changed_.wait(lock, [&] { return progress->done; });
  if (progress->status.ok()) return {Outcome::kRecorded, ""};
  return {Outcome::kFailed, progress->status.message()};
}

bool RunRecorder::TryRecord(RunRecord run) {
  return Enqueue({WriteRun(std::move(run)), nullptr}, /*wait=*/false, Clock::now(), /*is_run=*/true);
}

void RunRecorder::RecordRuleVersion(std::string dataset, std::string sha256, std::string text, std::string path,
                                    std::string first_seen, std::function<void(int64_t number)> recorded) {
  // A reload is rare and must be recorded: wait as long as it takes.
  Enqueue({[=](RunStore& store) -> Status {
             Result<int64_t> number = store.RecordRuleVersion(dataset, sha256, text, path, first_seen);
             if (!number.ok()) return number.status();
             if (recorded) recorded(*number);
             return Status::OK();
           },
           nullptr},
          /*wait=*/true, Clock::time_point::max(), /*is_run=*/false);
}

void RunRecorder::DropSchemaCache(std::string dataset) {
  Enqueue({[=](RunStore& store) { return store.DropSchemaCache(dataset); }, nullptr}, /*wait=*/true,
          Clock::time_point::max(), /*is_run=*/false);
}

void RunRecorder::WriterLoop() {
  for (;;) {
    Queued queued;
    bool skip = false;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [this] { return closed_ || !queue_.empty(); });
      if (queue_.empty()) return;  // closed and drained
      queued = std::move(queue_.front());
      queue_.pop_front();
      if (queued.progress) {
        skip = queued.progress->abandoned;  // its caller gave up and said so
        queued.progress->started = !skip;
      }
      changed_.notify_all();  // room for a waiting Record
    }
    Status status = skip ? Status::OK() : queued.task(*store_);
    if (skip) {
      dropped_.fetch_add(1);
    } else if (status.ok()) {
      written_.fetch_add(1);
    } else {
      failed_.fetch_add(1);
      std::fprintf(stderr, "griffin serve: run store: %s\n", status.message().c_str());
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (queued.progress) {
      queued.progress->status = status;
      queued.progress->done = true;
    }
    ++done_;
    changed_.notify_all();
  }
}

void RunRecorder::Flush() {
  std::unique_lock<std::mutex> lock(mutex_);
  const int64_t target = queued_;
  changed_.wait(lock, [&] { return done_ >= target || !writer_.joinable(); });
}

void RunRecorder::Close() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_ && !writer_.joinable()) return;
    closed_ = true;
  }
  changed_.notify_all();
  if (writer_.joinable()) writer_.join();
}

}  // namespace griffin::server
