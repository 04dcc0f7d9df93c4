// Row outputs (--clean, --quarantine) with their encoding off the merger
// thread. Write() is called in input order (the merger's row consumer): it
// prepares every sink (RowSink::Prepare: cheap, in order), copies what the
// verdicts need and hands the encoding (RowSink::Encode: the take of the kept
// rows, CSV/JSON text, Arrow arrays and the quarantine's annotations) to
// `threads` workers; the encoded pieces are appended in input order
// (RowSink::Append) on the calling thread, as Write() finds them ready and in
// Finish(). So the files are byte for byte those of RowSink::Write, for any
// thread count. At most `max_pending` batches wait for encoding or appending
// (Write blocks on the oldest), which bounds the memory held.
//
//   OutputPipeline pipeline({quarantine.get(), clean.get()}, threads);
//   run_options.on_rows = [&](const RowVerdicts& v) { return pipeline.Write(v); };
//   run_options.on_rows_done = [&] { return pipeline.Finish(); };
//
// Verdicts without a batch owner (RowVerdicts::batch_owner) are written at
// once, on the calling thread. After an error every later Write and Finish
// returns it; the destructor waits for running encodes and drops the rest.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "sinks/row_sink.h"
#include "util/status.h"

namespace griffin {

class OutputPipeline {
 public:
  // Starts up to `threads` (>= 1) workers; with none started, Write writes
  // on the calling thread.
  OutputPipeline(std::vector<RowSink*> sinks, int threads, int max_pending = 0);
  ~OutputPipeline();
  OutputPipeline(const OutputPipeline&) = delete;
  OutputPipeline& operator=(const OutputPipeline&) = delete;

  Status Write(const RowVerdicts& verdicts);
  // Appends everything still pending; call before committing the sinks.
  Status Finish();

 private:
  struct Job;
  void WorkerLoop();
  // Appends the finished jobs at the front; with `wait`, waits for the front
  // one first. Stops at the first error (kept in error_).
  Status AppendReady(bool wait);

  std::vector<RowSink*> sinks_;
  size_t max_pending_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable work_ready_, job_done_;
  std::deque<std::shared_ptr<Job>> jobs_;     // in input order, not yet appended
  std::deque<std::shared_ptr<Job>> queue_;    // not yet taken by a worker
  bool stopping_ = false;
  Status error_;
};

}  // namespace griffin
