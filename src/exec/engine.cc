#include "exec/engine.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>

#include "exec/batch_evaluator.h"
#include "exec/merger.h"

namespace griffin {
namespace {

using Clock = std::chrono::steady_clock;

Result<std::unique_ptr<BatchResult>> DecodeAndEvaluate(const BatchEvaluator& evaluator, Chunk& chunk) {
  auto batch = chunk.Decode();
  if (!batch.ok()) return batch.status();
  return evaluator.Evaluate(std::move(batch).value());
}

// Worker pool with ordered result delivery.
class OrderedPipeline {
 public:
  // Starts up to `threads` workers; a system out of threads (std::system_error,
  // or std::bad_alloc for their memory) leaves the rest unstarted: started()
  // says how many run.
  OrderedPipeline(const BatchEvaluator& evaluator, int threads) : evaluator_(evaluator) {
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
  Result<std::unique_ptr<BatchResult>> Take(int64_t sequence) {
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
      Result<std::unique_ptr<BatchResult>> result = DecodeAndEvaluate(evaluator_, *task.chunk);
      task.chunk.reset();
      {
        std::lock_guard<std::mutex> lock(mutex_);
        results_.emplace(task.sequence, std::move(result));
      }
      result_ready_.notify_all();
    }
  }

  const BatchEvaluator& evaluator_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable work_ready_, result_ready_;
  std::deque<Task> queue_;
  std::map<int64_t, Result<std::unique_ptr<BatchResult>>> results_;
  bool stopping_ = false;
  std::string start_error_;
};

}  // namespace

int ResolveThreads(int threads) {
  if (threads > 0) return std::min(threads, kMaxThreads);
  unsigned hardware = std::thread::hardware_concurrency();
  return hardware == 0 ? 1 : static_cast<int>(std::min<unsigned>(hardware, kMaxThreads));
}

Result<Report> RunValidation(std::shared_ptr<const Plan> plan, InputSource& source, const RunOptions& options) {
  const auto start = Clock::now();
  const int threads = ResolveThreads(options.threads);
  BatchEvaluator evaluator(plan, options.profile_columns);
  Merger merger(plan, MergerOptions{options.max_violations, options.known_schema_errors}, options.on_rows);
  const int64_t max_in_flight = options.max_in_flight > 0 ? options.max_in_flight : 2 * threads + 1;
  Status failure;
  auto last_progress = start - std::chrono::seconds(1);  // the first merged batch reports
  int64_t first_chunk_bytes = -1;
  int64_t merged = 0;

  // The next chunk; null at the end of the input or on a read error (in `failure`).
  auto read = [&]() -> std::unique_ptr<Chunk> {
    auto chunk = source.NextChunk();
    if (!chunk.ok()) {
      failure = chunk.status();
      return nullptr;
    }
    if (*chunk != nullptr && first_chunk_bytes < 0) first_chunk_bytes = source.bytes_read();
    return std::move(chunk).value();
  };
  // Merges the next batch's result, in input order; after a failure only counts it (draining).
  auto merge = [&](Result<std::unique_ptr<BatchResult>> result) {
    ++merged;
    if (!result.ok()) {
      if (failure.ok()) failure = result.status();
      return;
    }
    if (failure.ok()) {
      failure = merger.Merge(**result);
      if (!failure.ok()) return;
      if (merged == 1 && first_chunk_bytes > 0 && source.total_bytes() > first_chunk_bytes) {
        const double rows_per_byte = static_cast<double>(merger.rows()) / static_cast<double>(first_chunk_bytes);
        merger.ReserveForRows(static_cast<int64_t>(rows_per_byte * static_cast<double>(source.total_bytes()) * 1.05));
      }
    }
    if (options.progress) {
      auto now = Clock::now();
      if (now - last_progress > std::chrono::milliseconds(100)) {
        last_progress = now;
        options.progress({merger.rows(), source.bytes_read(), source.total_bytes(),
                          std::chrono::duration<double>(now - start).count()});
      }
    }
  };

  // An input of one chunk, and a lockstep run (one chunk in flight, so no
  // overlap to gain), run on this thread: no worker is started or woken.
  std::unique_ptr<Chunk> first = read();
  std::unique_ptr<Chunk> second = first != nullptr && max_in_flight > 1 ? read() : nullptr;
  if (second == nullptr) {
    for (std::unique_ptr<Chunk> chunk = std::move(first); chunk != nullptr && failure.ok(); chunk = read())
      merge(DecodeAndEvaluate(evaluator, *chunk));
  } else {
    OrderedPipeline pipeline(evaluator, threads);
    if (pipeline.started() == 0) return Status::Internal("cannot start a worker thread: " + pipeline.start_error());
    int64_t submitted = 0;
    pipeline.Submit(submitted++, std::move(first));
    pipeline.Submit(submitted++, std::move(second));
    bool end_of_input = false;
    while (true) {
      while (failure.ok() && !end_of_input && submitted - merged < max_in_flight) {
        std::unique_ptr<Chunk> chunk = read();
        if (chunk == nullptr) {
          end_of_input = true;
          break;
        }
        pipeline.Submit(submitted++, std::move(chunk));
      }
      if (merged == submitted) break;
      merge(pipeline.Take(merged));
    }
  }
  if (!failure.ok()) return failure;
  Report report = merger.Finish(source.is_text());
  report.griffin_version = GRIFFIN_VERSION;
  report.threads = threads;
  report.input_bytes = source.bytes_read();
  report.elapsed_s = std::chrono::duration<double>(Clock::now() - start).count();
  return report;
}

}  // namespace griffin
