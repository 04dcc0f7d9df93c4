// Writes to the run store on a background thread, so requests never wait
// for the database: validate runs (with the caller's key id), sampled
// /metrics runs, rule versions loaded on reload, and dropped schema caches,
// in the order they were queued. The queue is bounded (`capacity` tasks).
// Runs the service must not lose (validate calls, Flight DoPut) wait for
// room until a deadline; sampled ones are dropped when it is full (counted).
// A failed write is logged as one line on stderr and counted; the service
// goes on. A run whose record failed after it began (FinishRun refused: a
// report too big for the database, a full disk) is marked record_failed, not
// left "running". A caller that must know the outcome waits for it
// (RecordAndWait). Close() writes what is queued, then stops (graceful
// shutdown).
//
//   ASSIGN_OR_RETURN(auto recorder, RunRecorder::Open("runs.db", 4096));
//   recorder->Record(std::move(run), deadline);
//   recorder->Close();
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "store/run_store.h"
#include "util/status.h"

namespace griffin::server {

struct RunRecord {
  BeginRunRequest begin;
  FinishRunRequest finish;
};

class RunRecorder {
 public:
  using Clock = std::chrono::steady_clock;

  // Opens the store (applying migrations) on the calling thread, so a bad
  // URI fails here, then starts the writer thread.
  static Result<std::unique_ptr<RunRecorder>> Open(const std::string& store_uri, size_t capacity);
  ~RunRecorder();

  // Queues a run, waiting for room until `deadline`; false if there was none
  // (the run is not recorded) or the recorder is closed.
  bool Record(RunRecord run, Clock::time_point deadline);
  // Queues a run, waits until it is written and says how that went:
  // kRecorded; kNotQueued when there was no room (or nothing was written)
  // by `deadline`, and the run is then not written later either; kFailed with
  // the store's error when the write failed (the run is marked record_failed
  // where it began). A write already under way at the deadline is waited for.
  enum class Outcome { kRecorded, kNotQueued, kFailed };
  struct Waited {
    Outcome outcome = Outcome::kNotQueued;
    std::string error;  // kFailed: the store's one-line error
  };
  Waited RecordAndWait(RunRecord run, Clock::time_point deadline);
  // Queues a run if there is room now; false (and counted as dropped) if not.
  bool TryRecord(RunRecord run);
  // Queues a rule version (a reload) and the drop of the dataset's schema cache.
  // `recorded`, if given, gets the version's number in the store
  // (RunStore::RecordRuleVersion) on the writer thread once it is written.
  void RecordRuleVersion(std::string dataset, std::string sha256, std::string text, std::string path,
                         std::string first_seen, std::function<void(int64_t number)> recorded = nullptr);
  void DropSchemaCache(std::string dataset);

  // Waits until everything queued so far is written (tests, shutdown).
  void Flush();
  // Writes what is queued, then stops the thread. Later calls queue nothing.
  void Close();

  int64_t written() const { return written_.load(); }
  int64_t failed() const { return failed_.load(); }
  int64_t dropped() const { return dropped_.load(); }
  std::string Describe() const { return description_; }

 private:
  using Task = std::function<Status(RunStore&)>;
  // What a waiting caller sees of its task; guarded by mutex_.
  struct Progress {
    bool started = false, done = false, abandoned = false;
    Status status;
  };
  struct Queued {
    Task task;
    std::shared_ptr<Progress> progress;  // null: nobody waits
  };
  RunRecorder(std::unique_ptr<RunStore> store, size_t capacity);
  bool Enqueue(Queued queued, bool wait, Clock::time_point deadline, bool is_run);
  void WriterLoop();

  std::unique_ptr<RunStore> store_;
  const size_t capacity_;
  const std::string description_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Queued> queue_;
  bool closed_ = false;
  int64_t queued_ = 0, done_ = 0;  // tasks ever queued / finished, for Flush
  std::atomic<int64_t> written_{0}, failed_{0}, dropped_{0};
  std::thread writer_;
};

}  // namespace griffin::server
