#include "io/text_chunker.h"

#include <algorithm>
#include <cstring>

namespace griffin {

struct TextChunker::Buffer {
  explicit Buffer(size_t capacity_bytes)
      : bytes(new char[capacity_bytes + kTextPadding]), capacity(capacity_bytes) {
    std::memset(bytes.get() + capacity, 0, kTextPadding);
  }
  std::unique_ptr<char[]> bytes;
  size_t capacity;  // usable bytes; kTextPadding more are allocated
};

TextChunker::TextChunker(std::unique_ptr<ByteStream> in, RecordScanner* scanner, std::string name,
                         int64_t batch_rows, int64_t chunk_bytes)
    : in_(std::move(in)),
      scanner_(scanner),
      name_(std::move(name)),
      batch_rows_(std::max<int64_t>(1, batch_rows)),
      chunk_bytes_(static_cast<size_t>(std::max<int64_t>(1, chunk_bytes))) {}

Status TextChunker::Fill(bool grow) {
  if (grow || buffer_ == nullptr) {
    size_t tail = filled_ - begin_;
    // At least one chunk's worth, and at least double the unfinished record.
    size_t capacity = std::max({chunk_bytes_, tail * 2, size_t{4096}});
    auto fresh = std::make_shared<Buffer>(capacity);
    if (tail > 0) std::memcpy(fresh->bytes.get(), buffer_->bytes.get() + begin_, tail);
    buffer_ = std::move(fresh);
    begin_ = 0;
    filled_ = tail;
    // The padding after the data must stay readable and deterministic.
  }
  ASSIGN_OR_RETURN(size_t got,
                   ReadFully(*in_, buffer_->bytes.get() + filled_, buffer_->capacity - filled_));
  filled_ += got;
  if (filled_ < buffer_->capacity) eof_ = true;
  // Bytes between the data and the allocated padding are not input; zero them
  // so that readers past the end see no stale bytes.
  std::memset(buffer_->bytes.get() + filled_, 0,
              std::min(kTextPadding, buffer_->capacity - filled_));
  if (!started_) {
    started_ = true;
    if (filled_ - begin_ >= 3 && std::memcmp(buffer_->bytes.get() + begin_, "\xEF\xBB\xBF", 3) == 0)
      begin_ += 3;
  }
  return Status::OK();
}

TextSpan TextChunker::Emit(size_t end, int64_t records) {
  TextSpan span;
  span.text = std::string_view(buffer_->bytes.get() + begin_, end - begin_);
  span.num_records = records;
  span.owner = buffer_;
  begin_ = end;
  return span;
}

Result<TextSpan> TextChunker::Next(int64_t max_records) {
  if (max_records <= 0) max_records = batch_rows_;
  if (buffer_ == nullptr) RETURN_IF_ERROR(Fill(/*grow=*/false));
  size_t scan_pos = begin_;
  int64_t records = 0;
  for (;;) {
    const char* data = buffer_->bytes.get();
    size_t stop_at = begin_ + chunk_bytes_;
    scan_pos = scanner_->Scan(data, filled_, scan_pos, stop_at, max_records - records, &records);
    if (records >= max_records || (records > 0 && scan_pos >= stop_at)) {
      return Emit(scan_pos, records);
    }
    if (eof_) {
      if (filled_ > scan_pos) return Emit(filled_, records + 1);  // last record, no line end
      if (records > 0) return Emit(scan_pos, records);
      return TextSpan{};
    }
    // The buffer is full (Fill reads until full or EOF).
    if (records > 0) return Emit(scan_pos, records);
    if (filled_ - begin_ >= kMaxRecordBytes) {
      return Status::InputError(name_ + ": a record is longer than " +
                                std::to_string(kMaxRecordBytes >> 20) +
                                " MiB (an unterminated quote?)");
    }
    RETURN_IF_ERROR(Fill(/*grow=*/true));
    scan_pos = begin_;
  }
}

}  // namespace griffin
