#include "server/body_validation.h"

#include <arrow/buffer.h>
#include <arrow/io/memory.h>
#include <arrow/ipc/reader.h>
#include <arrow/memory_pool.h>

#include <algorithm>
#include <atomic>
#include <cctype>

namespace griffin::server {
namespace {

Status ArrowError(const arrow::Status& status) {
  return Status::InputError(std::string(kBodyName) + ": " + status.message());
}

// A pool that refuses an allocation past `limit` bytes held at once through
// it, and remembers that it did (Arrow's CappedMemoryPool over a pool that
// counts only this body's bytes).
class DecodedBytesCap : public arrow::CappedMemoryPool {
 public:
  explicit DecodedBytesCap(int64_t limit)
      : arrow::CappedMemoryPool(&counted_, limit), counted_(arrow::default_memory_pool()) {}
  using arrow::CappedMemoryPool::Allocate;
  using arrow::CappedMemoryPool::Reallocate;
  arrow::Status Allocate(int64_t size, int64_t alignment, uint8_t** out) override {
    return Note(arrow::CappedMemoryPool::Allocate(size, alignment, out));
  }
  arrow::Status Reallocate(int64_t old_size, int64_t new_size, int64_t alignment, uint8_t** ptr) override {
    return Note(arrow::CappedMemoryPool::Reallocate(old_size, new_size, alignment, ptr));
  }
  bool refused() const { return refused_.load(); }

 private:
  arrow::Status Note(arrow::Status status) {
    if (status.IsOutOfMemory()) refused_ = true;
    return status;
  }
  arrow::ProxyMemoryPool counted_;  // constructed before the base uses it: the base only keeps its address
  std::atomic<bool> refused_{false};
};

// The body's batches as a reader, from the IPC stream or file format;
// buffers it decompresses come from `pool`.
Result<std::shared_ptr<arrow::RecordBatchReader>> OpenArrowBody(std::string_view body, arrow::MemoryPool* pool) {
  auto buffer = std::make_shared<arrow::Buffer>(reinterpret_cast<const uint8_t*>(body.data()),
                                                static_cast<int64_t>(body.size()));
  auto input = std::make_shared<arrow::io::BufferReader>(buffer);
  arrow::ipc::IpcReadOptions options = arrow::ipc::IpcReadOptions::Defaults();
  options.memory_pool = pool;
  options.use_threads = false;  // the cap is checked exactly (CappedMemoryPool is not thread-exact)
  if (body.substr(0, 6) == "ARROW1") {
    auto file = arrow::ipc::RecordBatchFileReader::Open(input, options);
    if (!file.ok()) return ArrowError(file.status());
    std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
    for (int i = 0; i < (*file)->num_record_batches(); ++i) {
      auto batch = (*file)->ReadRecordBatch(i);
      if (!batch.ok()) return ArrowError(batch.status());
      batches.push_back(*batch);
    }
    auto reader = arrow::RecordBatchReader::Make(std::move(batches), (*file)->schema());
    if (!reader.ok()) return ArrowError(reader.status());
    return *reader;
  }
  auto stream = arrow::ipc::RecordBatchStreamReader::Open(input, options);
  if (!stream.ok()) return ArrowError(stream.status());
  return std::shared_ptr<arrow::RecordBatchReader>(*stream);
}

}  // namespace

std::optional<BodyFormat> BodyFormatOf(std::string_view content_type) {
  std::string type(content_type.substr(0, content_type.find(';')));
  type.erase(std::remove_if(type.begin(), type.end(), [](unsigned char c) { return std::isspace(c); }), type.end());
  std::transform(type.begin(), type.end(), type.begin(), [](unsigned char c) { return std::tolower(c); });
  if (type == "text/csv") return BodyFormat::kCsv;
  if (type == "text/tab-separated-values") return BodyFormat::kTsv;
  if (type == "application/x-ndjson" || type == "application/jsonl" || type == "application/jsonlines" ||
      type == "application/x-jsonlines")
    return BodyFormat::kJsonl;
  if (type == "application/vnd.apache.arrow.stream" || type == "application/vnd.apache.arrow.file")
    return BodyFormat::kArrow;
  return std::nullopt;
}

const char* AcceptedContentTypes() {
  return "text/csv, text/tab-separated-values, application/x-ndjson, application/vnd.apache.arrow.stream";
}

Result<ValidationResult> ValidateBody(const Validator& validator, std::string_view body, BodyFormat format,
                                      const ValidationOptions& options, int64_t max_decoded_bytes,
                                      bool* decoded_too_large) {
  if (decoded_too_large != nullptr) *decoded_too_large = false;
  switch (format) {
    case BodyFormat::kCsv: return validator.ValidateText(body, InputFormat::kCsv, kBodyName, options);
    case BodyFormat::kTsv: return validator.ValidateText(body, InputFormat::kTsv, kBodyName, options);
    case BodyFormat::kJsonl: return validator.ValidateText(body, InputFormat::kJsonl, kBodyName, options);
    case BodyFormat::kArrow: break;
  }
  // Declared before the reader: every buffer from it is gone when it goes.
  DecodedBytesCap pool(max_decoded_bytes);
  Result<ValidationResult> result = [&]() -> Result<ValidationResult> {
    ASSIGN_OR_RETURN(auto reader, OpenArrowBody(body, &pool));
    return validator.ValidateReader(std::move(reader), kBodyName, options);  // checked in io/arrow_check
  }();
  if (decoded_too_large != nullptr) *decoded_too_large = pool.refused();
  return result;
}

}  // namespace griffin::server
