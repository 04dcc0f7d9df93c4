#include "sinks/output_pipeline.h"

#include <new>
#include <system_error>

namespace griffin {

// One batch: its own copy of the verdicts (the batch kept alive by its
// owner), and the encoded piece of every sink once a worker is done.
struct OutputPipeline::Job {
  std::shared_ptr<const Batch> batch;
  std::vector<uint8_t> bad;
  RowVerdicts verdicts;
  std::vector<Result<std::unique_ptr<EncodedRows>>> pieces;
  bool done = false;  // under mutex_
};

OutputPipeline::OutputPipeline(std::vector<RowSink*> sinks, int threads, int max_pending)
    : sinks_(std::move(sinks)),
      max_pending_(static_cast<size_t>(max_pending > 0 ? max_pending : 2 * std::max(threads, 1) + 1)) {
  try {
    for (int i = 0; i < threads; ++i) workers_.emplace_back([this] { WorkerLoop(); });
  } catch (const std::system_error&) {  // out of threads: the started ones (or none) do the work
  } catch (const std::bad_alloc&) {
  }
}

OutputPipeline::~OutputPipeline() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    queue_.clear();
  }
  work_ready_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void OutputPipeline::WorkerLoop() {
  while (true) {
    std::shared_ptr<Job> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      work_ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    std::vector<Result<std::unique_ptr<EncodedRows>>> pieces;
    pieces.reserve(sinks_.size());
    for (RowSink* sink : sinks_) pieces.push_back(sink->Encode(job->verdicts));
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job->pieces = std::move(pieces);
      job->done = true;
    }
    job_done_.notify_all();
  }
}

Status OutputPipeline::AppendReady(bool wait) {
  while (error_.ok()) {
    std::shared_ptr<Job> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (jobs_.empty()) break;
      if (wait) job_done_.wait(lock, [&] { return jobs_.front()->done; });
      if (!jobs_.front()->done) break;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    wait = false;
    for (size_t s = 0; s < sinks_.size() && error_.ok(); ++s) {
      if (!job->pieces[s].ok()) {
        error_ = job->pieces[s].status();
      } else {
        error_ = sinks_[s]->Append(std::move(job->pieces[s]).value());
      }
    }
  }
  return error_;
}

Status OutputPipeline::Write(const RowVerdicts& verdicts) {
  RETURN_IF_ERROR(error_);
  if (verdicts.batch == nullptr) return Status::Internal("row verdicts without a batch");
  for (RowSink* sink : sinks_) {
    error_ = sink->Prepare(*verdicts.batch);
    RETURN_IF_ERROR(error_);
  }
  if (workers_.empty() || verdicts.batch_owner == nullptr) {  // on this thread, after what is pending
    while (true) {
      RETURN_IF_ERROR(AppendReady(/*wait=*/true));
      std::lock_guard<std::mutex> lock(mutex_);
      if (jobs_.empty()) break;
    }
    for (RowSink* sink : sinks_) {
      Result<std::unique_ptr<EncodedRows>> piece = sink->Encode(verdicts);
      error_ = piece.ok() ? sink->Append(std::move(piece).value()) : piece.status();
      RETURN_IF_ERROR(error_);
    }
    return Status::OK();
  }
  auto job = std::make_shared<Job>();
  job->batch = verdicts.batch_owner;
  job->verdicts.batch = job->batch.get();
  job->verdicts.base_row = verdicts.base_row;
  if (verdicts.bad != nullptr) {
    job->bad.assign(verdicts.bad, verdicts.bad + verdicts.batch->num_rows);
    job->verdicts.bad = job->bad.data();
  }
  job->verdicts.bad_rows = verdicts.bad_rows;
  job->verdicts.error_offsets = verdicts.error_offsets;
  job->verdicts.errors = verdicts.errors;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.push_back(job);
    queue_.push_back(std::move(job));
  }
  work_ready_.notify_one();
  RETURN_IF_ERROR(AppendReady(/*wait=*/false));
  while (true) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (jobs_.size() < max_pending_) break;
    }
    RETURN_IF_ERROR(AppendReady(/*wait=*/true));
  }
  return Status::OK();
}

Status OutputPipeline::Finish() {
  while (true) {
    RETURN_IF_ERROR(AppendReady(/*wait=*/true));
    std::lock_guard<std::mutex> lock(mutex_);
    if (jobs_.empty()) return Status::OK();
  }
}

}  // namespace griffin
