#include "api/feature_stream.h"

#include "io/input_source.h"

namespace griffin {
namespace {

// The Status a cancelled producer stops the engine with (never reported).
Status CancelledStatus() { return Status::Internal("feature stream cancelled"); }

}  // namespace

FeatureStream::FeatureStream(std::shared_ptr<const Validator> validator, std::vector<FeatureColumn> columns,
                             const FeatureStreamOptions& options)
    : validator_(std::move(validator)), columns_(columns), options_(options),
      batcher_(std::move(columns), options.batcher) {
  if (options_.prefetch < 1) options_.prefetch = 1;
}

FeatureStream::~FeatureStream() {
  Cancel();
  if (producer_.joinable()) producer_.join();
}

Result<std::unique_ptr<FeatureStream>> FeatureStream::OpenPaths(std::shared_ptr<const Validator> validator,
                                                                std::vector<std::string> paths,
                                                                std::vector<FeatureColumn> columns,
                                                                const FeatureStreamOptions& options) {
  if (paths.empty()) return Status::UsageError("no input paths given");
  std::unique_ptr<FeatureStream> stream(new FeatureStream(validator, std::move(columns), options));
  const Validator* v = validator.get();
  RETURN_IF_ERROR(stream->Start([v, paths = std::move(paths)](const ValidationOptions& run_options) {
    return v->ValidatePaths(paths, run_options);
  }));
  return stream;
}

Result<std::unique_ptr<FeatureStream>> FeatureStream::OpenReader(std::shared_ptr<const Validator> validator,
                                                                 std::shared_ptr<arrow::RecordBatchReader> reader,
                                                                 std::string name, std::vector<FeatureColumn> columns,
                                                                 const FeatureStreamOptions& options) {
  std::unique_ptr<FeatureStream> stream(new FeatureStream(validator, std::move(columns), options));
  const Validator* v = validator.get();
  RETURN_IF_ERROR(stream->Start([v, reader = std::move(reader), name = std::move(name)](
                                    const ValidationOptions& run_options) mutable {
    return v->ValidateReader(std::move(reader), name, run_options);
  }));
  return stream;
}

Status FeatureStream::Start(std::function<Result<ValidationResult>(const ValidationOptions&)> run) {
  if (columns_.empty()) return Status::UsageError("no feature columns");
  if (options_.batcher.batch_size < 1) return Status::UsageError("batch_size: must be at least 1");
  if (options_.batcher.shuffle_buffer < 0) return Status::UsageError("shuffle_buffer: must be 0 or more");
  if (!options_.quarantine_path.empty()) {
    SinkOptions sink_options;
    const SourceOptions& source = validator_->rules().source;
    sink_options.input_delimiter = sink_options.csv_delimiter = source.delimiter.value_or(',');
    sink_options.input_quote = source.quote;
    ASSIGN_OR_RETURN(quarantine_sink_, OpenRowSink(options_.quarantine_path, SinkKind::kQuarantine, sink_options));
  }
  producer_ = std::thread([this, run = std::move(run)] {
    Status status = Produce(run);
    if (!status.ok() && quarantine_sink_) quarantine_sink_->Abort();
    std::lock_guard<std::mutex> lock(mutex_);
    if (!cancelled_) error_ = status;
    done_ = true;
    changed_.notify_all();
  });
  return Status::OK();
}

Status FeatureStream::Produce(const std::function<Result<ValidationResult>(const ValidationOptions&)>& run) {
  ValidationOptions run_options;
  run_options.threads = options_.threads;
  run_options.batch_rows = options_.read_batch_rows;
  run_options.max_violations = options_.max_violations;
  run_options.collect_bad_rows = false;
  run_options.on_rows = [this](const RowVerdicts& verdicts) { return OnRows(verdicts); };
  ASSIGN_OR_RETURN(ValidationResult result, run(run_options));
  RETURN_IF_ERROR(batcher_.Finish([this](FeatureBatch batch) { return Push(std::move(batch)); }));
  if (quarantine_sink_) {
    ASSIGN_OR_RETURN(OutputSummary summary, quarantine_sink_->Commit());
    quarantine_summary_ = std::move(summary);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  result_ = std::move(result);
  clean_ = batcher_.rows_added();
  dropped_ = batcher_.rows_dropped();
  return Status::OK();
}

Status FeatureStream::OnRows(const RowVerdicts& verdicts) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (cancelled_) return CancelledStatus();
    quarantined_ += static_cast<int64_t>(verdicts.bad_rows.size());
    clean_ += verdicts.batch->num_rows - static_cast<int64_t>(verdicts.bad_rows.size());
  }
  if (quarantine_sink_) RETURN_IF_ERROR(quarantine_sink_->Write(verdicts));
  return batcher_.Add(verdicts, [this](FeatureBatch batch) { return Push(std::move(batch)); });
}

Status FeatureStream::Push(FeatureBatch batch) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return cancelled_ || static_cast<int>(queue_.size()) < options_.prefetch; });
  if (cancelled_) return CancelledStatus();
  queue_.push_back(std::move(batch));
  changed_.notify_all();
  return Status::OK();
}

Result<std::optional<FeatureBatch>> FeatureStream::Next() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return !queue_.empty() || done_; });
  if (!queue_.empty()) {
    FeatureBatch batch = std::move(queue_.front());
    queue_.pop_front();
    changed_.notify_all();
    return std::optional<FeatureBatch>(std::move(batch));
  }
  if (cancelled_) return Status::UsageError("the batch stream was cancelled");
  if (!error_.ok()) return error_;
  finished_ok_ = true;
  return std::optional<FeatureBatch>();
}

void FeatureStream::Cancel() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (done_ && queue_.empty()) return;
  cancelled_ = true;
  queue_.clear();
  changed_.notify_all();
}

int64_t FeatureStream::clean_rows() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return clean_;
}

int64_t FeatureStream::quarantined_rows() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return quarantined_;
}

int64_t FeatureStream::dropped_rows() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return dropped_;
}

}  // namespace griffin
