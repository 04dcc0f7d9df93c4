#include "connectors/delta/delta_output.h"

#include <arrow/c/abi.h>
#include <arrow/c/bridge.h>
#include <arrow/io/file.h>
#include <arrow/ipc/reader.h>
#include <arrow/record_batch.h>

#include "connectors/delta/delta_snapshot.h"
#include "connectors/delta/delta_table_ref.h"
#include "delta_kernel_shim.h"
#include "io/spooled_output.h"
#include "sinks/parquet_dictionary_choice.h"

namespace griffin::delta {
namespace {

// The spooled IPC file's batches, one at a time.
class SpoolReader : public arrow::RecordBatchReader {
 public:
  explicit SpoolReader(std::shared_ptr<arrow::ipc::RecordBatchFileReader> file) : file_(std::move(file)) {}
  std::shared_ptr<arrow::Schema> schema() const override { return file_->schema(); }
  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    if (next_ >= file_->num_record_batches()) {
      batch->reset();
      return arrow::Status::OK();
    }
    ARROW_ASSIGN_OR_RAISE(*batch, file_->ReadRecordBatch(next_++));
    return arrow::Status::OK();
  }

 private:
  std::shared_ptr<arrow::ipc::RecordBatchFileReader> file_;
  int next_ = 0;
};

class DeltaOutput : public SpooledOutput {
 public:
  DeltaOutput(DeltaTableRef ref, ParquetCodec codec)
      : SpooledOutput(ref.display), ref_(std::move(ref)), codec_(codec) {}
  Status Open(const std::string& temp_dir) { return SpooledOutput::Open("delta_output", temp_dir); }

 private:
  Result<CommittedObject> Publish(const std::string& spool_path) override { return Append(spool_path); }

  Result<CommittedObject> Append(const std::string& spool_path) {
    auto file = arrow::io::MemoryMappedFile::Open(spool_path, arrow::io::FileMode::READ);
    if (!file.ok()) return Status::InputError(ref_.display + ": " + file.status().ToString());
    auto ipc = arrow::ipc::RecordBatchFileReader::Open(*file);
    if (!ipc.ok()) return Status::InputError(ref_.display + ": " + ipc.status().ToString());
    // Mostly distinct text columns are written without a dictionary, as .parquet
    // outputs decide it: from the first batch (kGroupRows rows however the input
    // was batched), so a rerun writes the same pages.
    std::vector<std::string> plain_columns;
    if ((*ipc)->num_record_batches() > 0) {
      auto first = (*ipc)->ReadRecordBatch(0);
      if (!first.ok()) return Status::InputError(ref_.display + ": " + first.status().ToString());
      plain_columns = MostlyDistinctTextColumns(**first);
    }
    std::vector<const char*> plain_names;
    for (const std::string& name : plain_columns) plain_names.push_back(name.c_str());
    ArrowArrayStream stream{};
    if (auto exported = arrow::ExportRecordBatchReader(std::make_shared<SpoolReader>(*ipc), &stream); !exported.ok())
      return Status::InputError(ref_.display + ": " + exported.ToString());
    std::vector<const char*> keys, values;
    for (const auto& [key, value] : ref_.store_options) {
      keys.push_back(key.c_str());
      values.push_back(value.c_str());
    }
    int64_t version = -1;
    char* error = nullptr;
    const int rc = griffin_delta_append(ref_.location.c_str(), keys.data(), values.data(), keys.size(),
                                        ParquetCodecName(codec_), plain_names.data(), plain_names.size(), &stream,
                                        &version, &error);
    if (stream.release != nullptr) stream.release(&stream);  // not taken (an early error)
    if (rc != 0) {
      std::string message = error ? error : "unknown error";
      griffin_delta_free_string(error);
      return Status::InputError(KernelErrorMessage(ref_.display, message));
    }
    CommittedObject committed;
    committed.size = (*file)->GetSize().ValueOr(-1);
    committed.etag = "v=" + std::to_string(version);
    committed.table_version = version;
    return committed;
  }

  DeltaTableRef ref_;
  ParquetCodec codec_;
};

}  // namespace

Result<std::unique_ptr<OutputObject>> OpenDeltaOutput(const std::string& output, const OutputObjectOptions& options) {
  ASSIGN_OR_RETURN(DeltaTableRef ref, ParseDeltaTableRef(output));
  if (ref.version || ref.timestamp_ms)
    return Status::UsageError(ref.display + ": an output appends a new version; it takes no @v= or @ts=");
  auto table = std::make_unique<DeltaOutput>(std::move(ref), options.parquet_codec);
  RETURN_IF_ERROR(table->Open(options.temp_dir));
  return std::unique_ptr<OutputObject>(std::move(table));
}

}  // namespace griffin::delta
