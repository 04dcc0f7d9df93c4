#include "io/arrow_source.h"

#include <arrow/array/util.h>
#include <arrow/buffer.h>
#include <arrow/io/file.h>
#include <arrow/io/memory.h>
#include <arrow/io/stdio.h>
#include <arrow/ipc/reader.h>
#include <arrow/util/byte_size.h>
#include <parquet/arrow/reader.h>
#include <parquet/file_reader.h>

#include <atomic>
#include <exception>
#include <functional>

#include "io/arrow_check.h"

namespace griffin {
namespace {

// Remote Parquet: the largest coalesced read and the reads requested ahead.
constexpr int64_t kRemoteRangeBytes = 4 << 20;
constexpr int64_t kRemotePrefetch = 4;

std::string DisplayName(const std::string& path) { return path == "-" ? "<stdin>" : path; }

Status FromArrow(const std::string& path, const arrow::Status& status) {
  return Status::InputError(DisplayName(path) + ": " + status.message());
}

class ReadyChunk : public Chunk {
 public:
  explicit ReadyChunk(std::shared_ptr<Batch> batch) : batch_(std::move(batch)) {}
  Result<std::shared_ptr<Batch>> Decode() override { return batch_; }

 private:
  std::shared_ptr<Batch> batch_;
};

// The null spellings string arrays are matched against; null when there are none.
std::shared_ptr<const NullMatcher> StringNulls(const ReadOptions& options) {
  if (options.null_values.empty()) return nullptr;
  return std::make_shared<const NullMatcher>(options.null_values);
}

// A record batch from outside the engine: checked (io/arrow_check.h) on the
// decoding thread before anything reads its buffers.
class ForeignChunk : public Chunk {
 public:
  ForeignChunk(std::shared_ptr<arrow::RecordBatch> record_batch, std::string name, int input_index,
               std::shared_ptr<const NullMatcher> string_nulls)
      : record_batch_(std::move(record_batch)), name_(std::move(name)), input_index_(input_index),
        string_nulls_(std::move(string_nulls)) {}
  Result<std::shared_ptr<Batch>> Decode() override {
    ASSIGN_OR_RETURN(auto checked, CheckArrowBatch(std::move(record_batch_), name_));
    std::shared_ptr<Batch> batch = BatchFromRecordBatch(std::move(checked), input_index_, string_nulls_);
    MarkInvalidUtf8Rows(batch.get());
    return batch;
  }

 private:
  std::shared_ptr<arrow::RecordBatch> record_batch_;
  std::string name_;
  int input_index_;
  std::shared_ptr<const NullMatcher> string_nulls_;
};

// Yields the record batches of some reader; nullptr at the end.
using BatchPuller = std::function<arrow::Result<std::shared_ptr<arrow::RecordBatch>>()>;

// Slices what the puller yields into batches of at most batch_rows rows.
class ArrowSource : public InputSource {
 public:
  ArrowSource(std::string path, std::shared_ptr<arrow::Schema> schema, BatchPuller puller,
              std::function<int64_t()> progress, int64_t total_bytes, const ReadOptions& options,
              int input_index)
      : path_(std::move(path)), schema_(std::move(schema)), puller_(std::move(puller)),
        progress_(std::move(progress)), total_bytes_(total_bytes),
        batch_rows_(std::max<int64_t>(1, options.batch_rows)), input_index_(input_index),
        string_nulls_(StringNulls(options)) {}

  Result<std::unique_ptr<Chunk>> NextChunk() override {
    if (schema_->num_fields() > kMaxColumns)
      return Status::InputError(DisplayName(path_) + ": the schema has " + std::to_string(schema_->num_fields()) +
                                " columns; at most " + std::to_string(kMaxColumns) + " are supported");
    while (current_ == nullptr || offset_ >= current_->num_rows()) {
      if (done_) return std::unique_ptr<Chunk>();
      arrow::Result<std::shared_ptr<arrow::RecordBatch>> next;
      try {
        next = puller_();
      } catch (const std::exception& e) {
        return Status::InputError(DisplayName(path_) + ": " + e.what());
      }
      if (!next.ok()) return FromArrow(path_, next.status());
      current_ = *next;
      offset_ = 0;
      if (current_ == nullptr) {
        done_ = true;
        if (emitted_) return std::unique_ptr<Chunk>();
        ASSIGN_OR_RETURN(auto empty, EmptyBatch());
        emitted_ = true;
        return std::unique_ptr<Chunk>(std::make_unique<ReadyChunk>(std::move(empty)));
      }
    }
    std::shared_ptr<arrow::RecordBatch> slice =
        offset_ == 0 && current_->num_rows() <= batch_rows_ ? current_
                                                             : current_->Slice(offset_, batch_rows_);
    offset_ += slice->num_rows();
    emitted_ = true;
    return std::unique_ptr<Chunk>(
        std::make_unique<ForeignChunk>(std::move(slice), DisplayName(path_), input_index_, string_nulls_));
  }

  int64_t bytes_read() const override { return progress_(); }
  int64_t total_bytes() const override { return total_bytes_; }

 private:
  Result<std::shared_ptr<Batch>> EmptyBatch() {
    std::vector<std::shared_ptr<arrow::Array>> arrays;
    for (const auto& field : schema_->fields()) {
      auto empty = arrow::MakeEmptyArray(field->type());
      if (!empty.ok()) return FromArrow(path_, empty.status());
      arrays.push_back(*empty);
    }
    return BatchFromRecordBatch(arrow::RecordBatch::Make(schema_, 0, std::move(arrays)),
                                input_index_, string_nulls_);
  }

  std::string path_;
  std::shared_ptr<arrow::Schema> schema_;
  BatchPuller puller_;
  std::function<int64_t()> progress_;
  int64_t total_bytes_;
  int64_t batch_rows_;
  int input_index_;
  std::shared_ptr<const NullMatcher> string_nulls_;
  std::shared_ptr<arrow::RecordBatch> current_;
  int64_t offset_ = 0;
  bool done_ = false, emitted_ = false;
};

// Reads all of standard input (for formats that need random access).
Result<std::shared_ptr<arrow::io::RandomAccessFile>> SlurpStdin() {
  arrow::io::StdinStream in;
  std::vector<std::shared_ptr<arrow::Buffer>> pieces;
  int64_t total = 0;
  for (;;) {
    auto piece = in.Read(1 << 20);
    if (!piece.ok()) return FromArrow("-", piece.status());
    if ((*piece)->size() == 0) break;
    total += (*piece)->size();
    pieces.push_back(*piece);
  }
  auto all = arrow::AllocateBuffer(total);
  if (!all.ok()) return FromArrow("-", all.status());
  int64_t at = 0;
  for (const auto& piece : pieces) {
    std::memcpy((*all)->mutable_data() + at, piece->data(), piece->size());
    at += piece->size();
  }
  return std::shared_ptr<arrow::io::RandomAccessFile>(
      std::make_shared<arrow::io::BufferReader>(std::shared_ptr<arrow::Buffer>(std::move(*all))));
}

Result<std::shared_ptr<arrow::io::RandomAccessFile>> OpenRandomAccess(const std::string& path,
                                                                      bool memory_map) {
  if (path == "-") return SlurpStdin();
  if (memory_map) {
    auto file = arrow::io::MemoryMappedFile::Open(path, arrow::io::FileMode::READ);
    if (!file.ok()) return FromArrow(path, file.status());
    return std::shared_ptr<arrow::io::RandomAccessFile>(*file);
  }
  auto file = arrow::io::ReadableFile::Open(path);
  if (!file.ok()) return FromArrow(path, file.status());
  return std::shared_ptr<arrow::io::RandomAccessFile>(*file);
}

// `path` names the input in messages ("-": standard input, whose size is unknown).
Result<std::unique_ptr<InputSource>> OpenParquetFrom(const std::string& path,
                                                     std::shared_ptr<arrow::io::RandomAccessFile> file,
                                                     const ReadOptions& options, int input_index,
                                                     bool pre_buffer) {
  auto size = file->GetSize();
  if (!size.ok()) return FromArrow(path, size.status());
  parquet::ArrowReaderProperties properties;
  properties.set_batch_size(std::max<int64_t>(1, options.batch_rows));
  properties.set_use_threads(false);
  parquet::ReaderProperties reader_properties = parquet::default_reader_properties();
  if (pre_buffer) {
    // A remote file: column chunks are fetched in coalesced ranges of at most
    // kRemoteRangeBytes, each on first use with the next kRemotePrefetch ranges
    // requested ahead of it, so several requests are in flight while the
    // columns decode (one request at a time left a store's per-request
    // throughput as the limit); the columns of a batch decode in parallel on
    // Arrow's CPU pool.
    arrow::io::CacheOptions cache = arrow::io::CacheOptions::LazyDefaults();
    cache.range_size_limit = kRemoteRangeBytes;
    cache.prefetch_limit = kRemotePrefetch;
    properties.set_pre_buffer(true);
    properties.set_cache_options(cache);
    properties.set_use_threads(true);
    reader_properties.enable_buffered_stream();
  }
  parquet::arrow::FileReaderBuilder builder;
  arrow::Status status = builder.Open(file, reader_properties);
  if (!status.ok()) return FromArrow(path, status);
  builder.properties(properties);
  auto reader = builder.Build();
  if (!reader.ok()) return FromArrow(path, reader.status());
  std::shared_ptr<parquet::arrow::FileReader> file_reader = std::move(*reader);
  auto batches = file_reader->GetRecordBatchReader();
  if (!batches.ok()) return FromArrow(path, batches.status());
  std::shared_ptr<arrow::RecordBatchReader> batch_reader = std::move(*batches);
  const int64_t total_rows = file_reader->parquet_reader()->metadata()->num_rows();
  auto rows_read = std::make_shared<std::atomic<int64_t>>(0);
  const int64_t total_bytes = path == "-" ? -1 : *size;
  BatchPuller puller = [file_reader, batch_reader,
                        rows_read]() -> arrow::Result<std::shared_ptr<arrow::RecordBatch>> {
    ARROW_ASSIGN_OR_RAISE(auto batch, batch_reader->Next());
    if (batch) rows_read->fetch_add(batch->num_rows(), std::memory_order_relaxed);
    return batch;
  };
  const int64_t file_bytes = *size;
  auto progress = [rows_read, total_rows, file_bytes]() -> int64_t {
    if (total_rows == 0) return 0;
    return static_cast<int64_t>(static_cast<double>(file_bytes) *
                                rows_read->load(std::memory_order_relaxed) / total_rows);
  };
  return std::unique_ptr<InputSource>(std::make_unique<ArrowSource>(
      path, batch_reader->schema(), std::move(puller), std::move(progress), total_bytes,
      options, input_index));
}

// An IPC file or stream from `file` (random access: the format is told by its
// magic bytes) or `stream` (standard input: the stream format).
Result<std::unique_ptr<InputSource>> OpenArrowIpcFrom(const std::string& path,
                                                      std::shared_ptr<arrow::io::RandomAccessFile> file,
                                                      std::shared_ptr<arrow::io::InputStream> stream,
                                                      const ReadOptions& options, int input_index) {
  int64_t total_bytes = -1;
  bool file_format = false;
  if (file != nullptr) {
    auto size = file->GetSize();
    if (!size.ok()) return FromArrow(path, size.status());
    total_bytes = *size;
    auto magic = file->ReadAt(0, 6);
    if (!magic.ok()) return FromArrow(path, magic.status());
    file_format = (*magic)->ToString() == "ARROW1";
    stream = file;
  }
  auto tell = [stream]() -> int64_t {
    auto at = stream->Tell();
    return at.ok() ? *at : 0;
  };
  if (file_format) {
    auto reader = arrow::ipc::RecordBatchFileReader::Open(file);
    if (!reader.ok()) return FromArrow(path, reader.status());
    std::shared_ptr<arrow::ipc::RecordBatchFileReader> file_reader = *reader;
    auto next_index = std::make_shared<std::atomic<int>>(0);
    BatchPuller puller = [file_reader,
                          next_index]() -> arrow::Result<std::shared_ptr<arrow::RecordBatch>> {
      int i = next_index->load();
      if (i >= file_reader->num_record_batches()) return std::shared_ptr<arrow::RecordBatch>();
      next_index->store(i + 1);
      return file_reader->ReadRecordBatch(i);
    };
    auto progress = [file_reader, next_index, total_bytes]() -> int64_t {
      int n = file_reader->num_record_batches();
      return n == 0 ? 0 : total_bytes * next_index->load() / n;
    };
    return std::unique_ptr<InputSource>(std::make_unique<ArrowSource>(
        path, file_reader->schema(), std::move(puller), std::move(progress), total_bytes,
        options, input_index));
  }
  auto reader = arrow::ipc::RecordBatchStreamReader::Open(stream);
  if (!reader.ok()) return FromArrow(path, reader.status());
  std::shared_ptr<arrow::ipc::RecordBatchStreamReader> stream_reader = *reader;
  BatchPuller puller = [stream_reader]() { return stream_reader->Next(); };
  return std::unique_ptr<InputSource>(std::make_unique<ArrowSource>(
      path, stream_reader->schema(), std::move(puller), std::move(tell), total_bytes,
      options, input_index));
}

Result<std::unique_ptr<InputSource>> OpenParquetImpl(const std::string& path,
                                                     const ReadOptions& options, int input_index) {
  ASSIGN_OR_RETURN(auto file, OpenRandomAccess(path, /*memory_map=*/false));
  return OpenParquetFrom(path, std::move(file), options, input_index, /*pre_buffer=*/false);
}

Result<std::unique_ptr<InputSource>> OpenArrowIpcImpl(const std::string& path,
                                                      const ReadOptions& options, int input_index) {
  if (path == "-") return OpenArrowIpcFrom(path, nullptr, std::make_shared<arrow::io::StdinStream>(), options, input_index);
  ASSIGN_OR_RETURN(auto file, OpenRandomAccess(path, /*memory_map=*/true));
  return OpenArrowIpcFrom(path, std::move(file), nullptr, options, input_index);
}

}  // namespace

std::shared_ptr<Batch> BatchFromRecordBatch(std::shared_ptr<arrow::RecordBatch> record_batch,
                                            int input_index,
                                            std::shared_ptr<const NullMatcher> string_nulls) {
  auto batch = std::make_shared<Batch>();
  batch->string_nulls = std::move(string_nulls);
  batch->num_rows = record_batch->num_rows();
  batch->input_index = input_index;
  const auto& schema = record_batch->schema();
  batch->columns.resize(record_batch->num_columns());
  for (int i = 0; i < record_batch->num_columns(); ++i) {
    batch->columns[i].name = schema->field(i)->name();
    batch->columns[i].array = record_batch->column(i);
  }
  batch->arrow_keepalive = std::move(record_batch);
  return batch;
}

std::unique_ptr<InputSource> OpenRecordBatchReaderSource(std::shared_ptr<arrow::RecordBatchReader> reader,
                                                         const std::string& name, const ReadOptions& options,
                                                         int input_index) {
  auto bytes_read = std::make_shared<std::atomic<int64_t>>(0);
  BatchPuller puller = [reader, bytes_read]() -> arrow::Result<std::shared_ptr<arrow::RecordBatch>> {
    ARROW_ASSIGN_OR_RAISE(auto batch, reader->Next());
    if (batch) bytes_read->fetch_add(arrow::util::TotalBufferSize(*batch), std::memory_order_relaxed);
    return batch;
  };
  auto progress = [bytes_read]() -> int64_t { return bytes_read->load(std::memory_order_relaxed); };
  return std::make_unique<ArrowSource>(name, reader->schema(), std::move(puller), std::move(progress),
                                       /*total_bytes=*/-1, options, input_index);
}

Result<std::unique_ptr<InputSource>> OpenParquetSource(const std::string& path,
                                                       const ReadOptions& options, int input_index) {
  try {
    return OpenParquetImpl(path, options, input_index);
  } catch (const std::exception& e) {
    return Status::InputError(DisplayName(path) + ": " + e.what());
  }
}

Result<std::unique_ptr<InputSource>> OpenArrowIpcSource(const std::string& path,
                                                        const ReadOptions& options, int input_index) {
  try {
    return OpenArrowIpcImpl(path, options, input_index);
  } catch (const std::exception& e) {
    return Status::InputError(DisplayName(path) + ": " + e.what());
  }
}

Result<std::unique_ptr<InputSource>> OpenParquetFile(std::shared_ptr<arrow::io::RandomAccessFile> file,
                                                     const std::string& name, const ReadOptions& options,
                                                     int input_index) {
  try {
    return OpenParquetFrom(name, std::move(file), options, input_index, /*pre_buffer=*/true);
  } catch (const std::exception& e) {
    return Status::InputError(name + ": " + e.what());
  }
}

Result<std::unique_ptr<InputSource>> OpenArrowIpcFile(std::shared_ptr<arrow::io::RandomAccessFile> file,
                                                      const std::string& name, const ReadOptions& options,
                                                      int input_index) {
  try {
    return OpenArrowIpcFrom(name, std::move(file), nullptr, options, input_index);
  } catch (const std::exception& e) {
    return Status::InputError(name + ": " + e.what());
  }
}

Result<std::unique_ptr<InputSource>> OpenArrowIpcBuffer(std::shared_ptr<arrow::Buffer> bytes, const std::string& name,
                                                        const ReadOptions& options, int input_index) {
  try {
    return OpenArrowIpcFrom(name, std::make_shared<arrow::io::BufferReader>(std::move(bytes)), nullptr, options,
                            input_index);
  } catch (const std::exception& e) {
    return Status::InputError(name + ": " + e.what());
  }
}

}  // namespace griffin
