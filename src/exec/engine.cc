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
#include "exec/partial_state.h"
#include "exec/ordered_pipeline.h"

namespace griffin {
namespace {

using Clock = std::chrono::steady_clock;

Result<std::unique_ptr<BatchResult>> DecodeAndEvaluate(const BatchEvaluator& evaluator, Chunk& chunk) {
  auto batch = chunk.Decode();
  if (!batch.ok()) return batch.status();
  return evaluator.Evaluate(std::move(batch).value());
}

}  // namespace

int ResolveThreads(int threads) {
  if (threads > 0) return std::min(threads, kMaxThreads);
  unsigned hardware = std::thread::hardware_concurrency();
  return hardware == 0 ? 1 : static_cast<int>(std::min<unsigned>(hardware, kMaxThreads));
}

Result<Report> RunValidation(std::shared_ptr<const Plan> plan, InputSource& source, const RunOptions& options) {
  const auto start = Clock::now();
  const int threads = ResolveThreads(options.threads);
  BatchEvaluator evaluator(plan, options.profile_columns, options.table_profiling, options.result_pool);
  MergerOptions merger_options{options.max_violations, options.known_schema_errors, options.prior_unique,
                               options.row_offset, options.partial_state != nullptr, options.memory_limit,
                               options.tmp_dir};
  merger_options.unique_over_limit = options.unique_over_limit;
  merger_options.log_unique_repeats = options.unique_repeats_out != nullptr;
  merger_options.known_unique_repeats = options.known_unique_repeats;
  Merger merger(plan, std::move(merger_options), options.on_rows);
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
      if (options.result_pool) options.result_pool->Give(std::move(*result));
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
    OrderedPipeline<Result<std::unique_ptr<BatchResult>>> pipeline(
        [&evaluator](Chunk& chunk) { return DecodeAndEvaluate(evaluator, chunk); }, threads);
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
  if (failure.ok() && options.on_rows && options.on_rows_done) failure = options.on_rows_done();
  if (!failure.ok()) return failure;
  if (options.partial_state)
    *options.partial_state =
        PartialState::Serialize(merger, source.is_text(), options.key_shards, options.partial_key_shards);
  RETURN_IF_ERROR(merger.FinishSpills());
  if (options.unique_repeats_out) {
    ASSIGN_OR_RETURN(*options.unique_repeats_out, merger.TakeRepeatLogs());
  }
  Report report = merger.Finish(source.is_text());
  report.griffin_version = GRIFFIN_VERSION;
  report.threads = threads;
  report.input_bytes = source.bytes_read();
  report.elapsed_s = std::chrono::duration<double>(Clock::now() - start).count();
  return report;
}

}  // namespace griffin
