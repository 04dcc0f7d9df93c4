#include "record_batch_reader_source.h"

#include <algorithm>
#include <exception>

#include <arrow/array/util.h>
#include <arrow/util/byte_size.h>

#include "io/arrow_source.h"

namespace griffin {
namespace {

class ReadyChunk : public Chunk {
 public:
  explicit ReadyChunk(std::shared_ptr<Batch> batch) : batch_(std::move(batch)) {}
  Result<std::shared_ptr<Batch>> Decode() override { return batch_; }

 private:
  std::shared_ptr<Batch> batch_;
};

class RecordBatchReaderSource : public InputSource {
 public:
  RecordBatchReaderSource(std::shared_ptr<arrow::RecordBatchReader> reader, std::string name, int64_t batch_rows)
      : reader_(std::move(reader)), name_(std::move(name)), batch_rows_(std::max<int64_t>(1, batch_rows)) {}

  Result<std::unique_ptr<Chunk>> NextChunk() override {
    while (current_ == nullptr || offset_ >= current_->num_rows()) {
      if (done_) return std::unique_ptr<Chunk>();
      std::shared_ptr<arrow::RecordBatch> next;
      arrow::Status status;
      try {
        status = reader_->ReadNext(&next);
      } catch (const std::exception& e) {
        return Status::InputError(name_ + ": " + e.what());
      }
      if (!status.ok()) return Status::InputError(name_ + ": " + status.message());
      current_ = std::move(next);
      offset_ = 0;
      if (current_ == nullptr) {
        done_ = true;
        if (emitted_) return std::unique_ptr<Chunk>();
        // Every input gives at least one batch: zero rows with the schema's columns.
        ASSIGN_OR_RETURN(auto empty, EmptyBatch());
        emitted_ = true;
        return std::unique_ptr<Chunk>(std::make_unique<ReadyChunk>(std::move(empty)));
      }
      bytes_read_ += arrow::util::TotalBufferSize(*current_);
    }
    std::shared_ptr<arrow::RecordBatch> slice =
        offset_ == 0 && current_->num_rows() <= batch_rows_ ? current_ : current_->Slice(offset_, batch_rows_);
    offset_ += slice->num_rows();
    emitted_ = true;
    return std::unique_ptr<Chunk>(std::make_unique<ReadyChunk>(BatchFromRecordBatch(std::move(slice), 0)));
  }

  int64_t bytes_read() const override { return bytes_read_; }
  int64_t total_bytes() const override { return -1; }

 private:
  Result<std::shared_ptr<Batch>> EmptyBatch() {
    const std::shared_ptr<arrow::Schema> schema = reader_->schema();
    std::vector<std::shared_ptr<arrow::Array>> arrays;
    for (const auto& field : schema->fields()) {
      auto empty = arrow::MakeEmptyArray(field->type());
      if (!empty.ok()) return Status::InputError(name_ + ": " + empty.status().message());
      arrays.push_back(*empty);
    }
    return BatchFromRecordBatch(arrow::RecordBatch::Make(schema, 0, std::move(arrays)), 0);
  }

  std::shared_ptr<arrow::RecordBatchReader> reader_;
  std::string name_;
  int64_t batch_rows_;
  std::shared_ptr<arrow::RecordBatch> current_;
  int64_t offset_ = 0;
  int64_t bytes_read_ = 0;
  bool done_ = false, emitted_ = false;
};

}  // namespace

std::unique_ptr<InputSource> MakeRecordBatchReaderSource(std::shared_ptr<arrow::RecordBatchReader> reader,
                                                         std::string name, int64_t batch_rows) {
  return std::make_unique<RecordBatchReaderSource>(std::move(reader), std::move(name), batch_rows);
}

}  // namespace griffin
