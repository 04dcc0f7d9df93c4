// Validated training batches, produced ahead of the consumer: a background
// thread reads the input, validates it with the Validator (all cores), keeps
// the clean rows' feature columns (FeatureBatcher) and queues up to `prefetch`
// batches. The consumer's Next() blocks only when the queue is empty; the
// producer blocks when it is full, so memory stays bounded by
// (prefetch + 1) batches plus the engine's own chunks and the shuffle buffer.
//
// Quarantined rows are counted and, with `quarantine_path`, written there as
// by `griffin validate --quarantine` (committed when the input is exhausted;
// removed when the stream is cancelled or fails).
//
// Thread safety: Next(), Cancel() and the accessors may be called from any one
// consumer thread; the destructor cancels and joins the producer.
//
//   ASSIGN_OR_RETURN(auto stream, FeatureStream::OpenPaths(validator, {"a.csv"}, columns, options));
//   while (true) {
//     ASSIGN_OR_RETURN(std::optional<FeatureBatch> batch, stream->Next());
//     if (!batch) break;   // stream->result() now holds the run's report
//   }
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "api/feature_batcher.h"
#include "api/validator.h"

namespace griffin {

struct FeatureStreamOptions {
  BatcherOptions batcher;
  int prefetch = 2;                      // queued batches (at least 1)
  int threads = 0;                       // engine workers; 0: all cores
  int64_t read_batch_rows = 65536;       // engine chunk size
  int64_t max_violations = kDefaultMaxViolations;  // listed per check in the final report
  std::string quarantine_path;           // empty: count only
};

class FeatureStream {
 public:
  static Result<std::unique_ptr<FeatureStream>> OpenPaths(std::shared_ptr<const Validator> validator,
                                                          std::vector<std::string> paths,
                                                          std::vector<FeatureColumn> columns,
                                                          const FeatureStreamOptions& options);
  static Result<std::unique_ptr<FeatureStream>> OpenReader(std::shared_ptr<const Validator> validator,
                                                           std::shared_ptr<arrow::RecordBatchReader> reader,
                                                           std::string name, std::vector<FeatureColumn> columns,
                                                           const FeatureStreamOptions& options);
  ~FeatureStream();

  // The next batch; nullopt at the end; the run's error (input, rules,
  // conversion) once the queued batches before it are consumed.
  Result<std::optional<FeatureBatch>> Next();
  // Stops the producer (the quarantine file is not written). Idempotent.
  void Cancel();

  const std::vector<FeatureColumn>& columns() const { return columns_; }
  // After Next() returned nullopt: the whole run's result (bad rows not collected).
  const ValidationResult* result() const { return finished_ok_ ? &result_ : nullptr; }
  // Counts so far (final after the end).
  int64_t clean_rows() const;
  int64_t quarantined_rows() const;
  int64_t dropped_rows() const;        // clean rows left in a dropped remainder
  const std::optional<OutputSummary>& quarantine() const { return quarantine_summary_; }

 private:
  FeatureStream(std::shared_ptr<const Validator> validator, std::vector<FeatureColumn> columns,
                const FeatureStreamOptions& options);
  Status Start(std::function<Result<ValidationResult>(const ValidationOptions&)> run);
  Status Produce(const std::function<Result<ValidationResult>(const ValidationOptions&)>& run);
  Status OnRows(const RowVerdicts& verdicts);
  Status Push(FeatureBatch batch);

  std::shared_ptr<const Validator> validator_;
  std::vector<FeatureColumn> columns_;
  FeatureStreamOptions options_;
  FeatureBatcher batcher_;
  std::unique_ptr<RowSink> quarantine_sink_;
  std::optional<OutputSummary> quarantine_summary_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<FeatureBatch> queue_;
  bool done_ = false;          // the producer has finished (ok or not)
  bool cancelled_ = false;
  Status error_;
  int64_t quarantined_ = 0;
  int64_t clean_ = 0;
  int64_t dropped_ = 0;
  ValidationResult result_;    // written by the producer before done_
  bool finished_ok_ = false;   // set by Next() when it reports the end
  std::thread producer_;
};

}  // namespace griffin
