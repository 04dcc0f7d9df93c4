// Parquet and Arrow IPC outputs. Kept rows are compacted per batch (Encode,
// on any thread: the take of the kept rows, text columns, the added ones); the
// in-order Append only queues the piece for the sink's writer thread
// (background_writer.h), which regroups them into record batches of
// kGroupRows rows (fewer when they pass kGroupBytes) and encodes them: one
// Parquet row group / one IPC record batch each. The grouping depends only on
// the rows, not on how the input was batched, so a rerun gives the same
// bytes; one group and kQueuedPieces batches are held in memory at most.
// A Parquet file's writer opens at its first group, which decides the text
// columns written without a dictionary (parquet_dictionary_choice.h).
#include <arrow/array/concatenate.h>
#include <arrow/io/interfaces.h>
#include <arrow/ipc/writer.h>
#include <arrow/table.h>
#include <arrow/util/byte_size.h>
#include <parquet/arrow/writer.h>
#include <parquet/properties.h>

#include "sinks/arrow_batch_builder.h"
#include "sinks/background_writer.h"
#include "sinks/file_row_sink.h"
#include "sinks/parquet_dictionary_choice.h"

namespace griffin {
namespace {

constexpr int64_t kGroupRows = 65536;
constexpr int64_t kGroupBytes = 64 << 20;
constexpr size_t kQueuedPieces = 4;  // batches queued for the writer thread

arrow::Compression::type ParquetCompression(ParquetCodec codec) {
  switch (codec) {
    case ParquetCodec::kSnappy: return arrow::Compression::SNAPPY;
    case ParquetCodec::kZstd: return arrow::Compression::ZSTD;
    case ParquetCodec::kLz4: return arrow::Compression::LZ4;  // as pyarrow's compression='lz4'
    case ParquetCodec::kNone: return arrow::Compression::UNCOMPRESSED;
  }
  return arrow::Compression::SNAPPY;
}

// The bytes a batch's arrays reference (only their slices' share).
int64_t BatchBytes(const arrow::RecordBatch& batch) {
  int64_t bytes = 0;
  for (const auto& column : batch.columns()) {
    auto referenced = arrow::util::ReferencedBufferSize(*column);
    bytes += referenced.ok() ? *referenced : arrow::util::TotalBufferSize(*column);
  }
  return bytes;
}

// An arrow::io::OutputStream appending to an AtomicFile.
class AtomicFileStream : public arrow::io::OutputStream {
 public:
  explicit AtomicFileStream(AtomicFile* file) : file_(file) {}
  arrow::Status Close() override {
    closed_ = true;
    return arrow::Status::OK();
  }
  bool closed() const override { return closed_; }
  arrow::Result<int64_t> Tell() const override { return position_; }
  arrow::Status Write(const void* data, int64_t nbytes) override {
    if (closed_) return arrow::Status::Invalid("write to a closed stream");
    Status status = file_->Append(std::string_view(static_cast<const char*>(data), static_cast<size_t>(nbytes)));
    if (!status.ok()) return arrow::Status::IOError(status.message());
    position_ += nbytes;
    return arrow::Status::OK();
  }
  using arrow::io::OutputStream::Write;

 private:
  AtomicFile* file_;
  int64_t position_ = 0;
  bool closed_ = false;
};

// A batch's kept rows as a record batch of the output schema.
struct EncodedBatch : EncodedRows {
  std::shared_ptr<arrow::RecordBatch> batch;
};

class ArrowSink : public FileRowSink {
 public:
  ArrowSink(std::unique_ptr<AtomicFile> file, SinkKind kind, const SinkOptions& options, ArrowFileFormat format)
      : FileRowSink(std::move(file), kind, options), format_(format), options_(options) {
    added_.quarantine = quarantine();
    if (tagged()) added_.version_tag = options.version_tag;
  }
  ~ArrowSink() override { writer_.Stop(); }

 protected:
  Status Begin(const Batch* first) override {
    schema_ = OutputSchema(first, added_);
    stream_ = std::make_shared<AtomicFileStream>(file());
    if (format_ == ArrowFileFormat::kParquet) {
      // Opened by the writer thread at the first row group (OpenParquet).
    } else {
      auto writer = arrow::ipc::MakeFileWriter(stream_, schema_);
      if (!writer.ok()) return WriterError(writer.status());
      ipc_ = std::move(*writer);
    }
    return Status::OK();
  }

  Result<std::unique_ptr<EncodedRows>> EncodeRows(const RowVerdicts& verdicts,
                                                  const std::vector<int32_t>& rows) const override {
    auto piece = std::make_unique<EncodedBatch>();
    ASSIGN_OR_RETURN(piece->batch,
                     BuildOutputBatch(schema_, added_, verdicts, rows, InputName(verdicts.batch->input_index)));
    return std::unique_ptr<EncodedRows>(std::move(piece));
  }

  // The merger only queues the piece; the writer thread groups and writes.
  Status AppendRows(std::unique_ptr<EncodedRows> piece) override {
    std::shared_ptr<arrow::RecordBatch> batch = std::move(static_cast<EncodedBatch&>(*piece).batch);
    return writer_.Submit([this, batch] { return AddPending(batch); });
  }

  Status Finish() override {
    RETURN_IF_ERROR(writer_.Submit([this] { return WriteRest(); }));
    return writer_.Wait();
  }

  void StopWriting() override { writer_.Stop(); }

 private:
  // On the writer thread, in order:
  Status AddPending(std::shared_ptr<arrow::RecordBatch> batch) {
    pending_rows_ += batch->num_rows();
    pending_bytes_ += BatchBytes(*batch);
    pending_.push_back(std::move(batch));
    while (pending_rows_ >= kGroupRows || pending_bytes_ >= kGroupBytes) {
      RETURN_IF_ERROR(WriteGroup(std::min(pending_rows_, kGroupRows)));
    }
    return Status::OK();
  }

  Status WriteRest() {
    while (pending_rows_ > 0) RETURN_IF_ERROR(WriteGroup(std::min(pending_rows_, kGroupRows)));
    if (format_ == ArrowFileFormat::kParquet && !parquet_) RETURN_IF_ERROR(OpenParquet(nullptr));
    arrow::Status closed = parquet_ ? parquet_->Close() : ipc_->Close();
    if (!closed.ok()) return WriterError(closed);
    return Status::OK();
  }

  Status WriterError(const arrow::Status& status) {
    return Status::InputError(file()->final_path() + ": " + status.message());
  }

  // Opens the Parquet writer: the codec of SinkOptions::parquet_codec (Snappy
  // by default), row groups of kGroupRows, and no
  // dictionary for the text columns whose first row group (`first_group`;
  // null for a file without rows) is mostly distinct values.
  Status OpenParquet(const arrow::RecordBatch* first_group) {
    parquet::WriterProperties::Builder properties;
    properties.compression(ParquetCompression(options_.parquet_codec))->max_row_group_length(kGroupRows);
    if (first_group != nullptr)
      for (const std::string& name : MostlyDistinctTextColumns(*first_group)) properties.disable_dictionary(name);
    auto arrow_properties = parquet::ArrowWriterProperties::Builder().store_schema()->build();
    auto writer = parquet::arrow::FileWriter::Open(*schema_, arrow::default_memory_pool(), stream_,
                                                   properties.build(), arrow_properties);
    if (!writer.ok()) return WriterError(writer.status());
    parquet_ = std::move(*writer);
    return Status::OK();
  }

  // Writes the first `rows` pending rows as one group; keeps the rest pending.
  Status WriteGroup(int64_t rows) {
    std::shared_ptr<arrow::RecordBatch> all = pending_.front();
    if (pending_.size() > 1) {
      arrow::ArrayVector columns;
      for (int c = 0; c < schema_->num_fields(); ++c) {
        arrow::ArrayVector pieces;
        for (const auto& batch : pending_) pieces.push_back(batch->column(c));
        auto joined = arrow::Concatenate(pieces);
        if (!joined.ok()) return Status::Internal("arrow: " + joined.status().ToString());
        columns.push_back(std::move(*joined));
      }
      all = arrow::RecordBatch::Make(schema_, pending_rows_, std::move(columns));
    }
    std::shared_ptr<arrow::RecordBatch> group = all->Slice(0, rows);
    arrow::Status written;
    if (format_ == ArrowFileFormat::kParquet) {
      if (!parquet_) RETURN_IF_ERROR(OpenParquet(group.get()));
      auto table = arrow::Table::FromRecordBatches(schema_, {group});
      written = table.ok() ? parquet_->WriteTable(**table, rows) : table.status();
    } else {
      written = ipc_->WriteRecordBatch(*group);
    }
    if (!written.ok()) return WriterError(written);
    pending_.clear();
    pending_rows_ -= rows;
    pending_bytes_ = 0;
    if (pending_rows_ > 0) {
      pending_.push_back(all->Slice(rows));
      pending_bytes_ = BatchBytes(*pending_.back());
    }
    return Status::OK();
  }

  const ArrowFileFormat format_;
  const SinkOptions options_;
  OutputColumns added_;
  std::shared_ptr<arrow::Schema> schema_;
  std::shared_ptr<AtomicFileStream> stream_;
  std::unique_ptr<parquet::arrow::FileWriter> parquet_;
  std::shared_ptr<arrow::ipc::RecordBatchWriter> ipc_;
  std::vector<std::shared_ptr<arrow::RecordBatch>> pending_;
  int64_t pending_rows_ = 0;
  int64_t pending_bytes_ = 0;
  BackgroundWriter writer_{kQueuedPieces};  // last: stopped first, before what its tasks use
};

}  // namespace

std::unique_ptr<RowSink> MakeArrowSink(std::unique_ptr<AtomicFile> file, SinkKind kind, const SinkOptions& options,
                                       ArrowFileFormat format) {
  return std::make_unique<ArrowSink>(std::move(file), kind, options, format);
}

}  // namespace griffin
