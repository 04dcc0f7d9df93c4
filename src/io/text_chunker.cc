#include "io/text_chunker.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace griffin {

struct TextChunker::Buffer {
  // Null `bytes` when the allocation failed.
  explicit Buffer(size_t capacity_bytes)
      : bytes(static_cast<char*>(std::malloc(capacity_bytes + kTextPadding))), capacity(capacity_bytes) {
    if (bytes != nullptr) std::memset(bytes + capacity, 0, kTextPadding);
  }
  ~Buffer() { std::free(bytes); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  // Grows (or shrinks) to `capacity_bytes`, keeping the bytes, in place where
  // the allocator can: a large block is remapped, not copied, so growing a
  // 512 MiB buffer to 1 GiB does not hold 1.5 GiB. False (unchanged) when
  // memory runs out.
  bool Resize(size_t capacity_bytes) {
    char* grown = static_cast<char*>(std::realloc(bytes, capacity_bytes + kTextPadding));
    if (grown == nullptr) return false;
    bytes = grown;
    capacity = capacity_bytes;
    std::memset(bytes + capacity, 0, kTextPadding);
    return true;
  }
  char* bytes;
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
    const size_t tail = filled_ - begin_;
    // At least one chunk's worth, and double the unfinished record up to the
    // record limit: memory stays within kMaxRecordBytes (plus a chunk).
    const size_t capacity = std::max({chunk_bytes_, std::min(tail * 2, kMaxRecordBytes), size_t{4096}});
    if (buffer_ != nullptr && buffer_.use_count() == 1) {
      // No span points here any more: move the tail to the front and grow in place.
      if (begin_ > 0 && tail > 0) std::memmove(buffer_->bytes, buffer_->bytes + begin_, tail);
      if (!buffer_->Resize(capacity)) return OutOfMemory(capacity);
    } else {
      auto fresh = std::make_shared<Buffer>(capacity);
      if (fresh->bytes == nullptr) return OutOfMemory(capacity);
      if (tail > 0) std::memcpy(fresh->bytes, buffer_->bytes + begin_, tail);
      buffer_ = std::move(fresh);
    }
    begin_ = 0;
    filled_ = tail;
    // The padding after the data must stay readable and deterministic.
  }
  ASSIGN_OR_RETURN(size_t got,
                   ReadFully(*in_, buffer_->bytes + filled_, buffer_->capacity - filled_));
  filled_ += got;
  if (filled_ < buffer_->capacity) eof_ = true;
  // Bytes between the data and the allocated padding are not input; zero them
  // so that readers past the end see no stale bytes.
  std::memset(buffer_->bytes + filled_, 0,
              std::min(kTextPadding, buffer_->capacity - filled_));
  if (!started_) {
    started_ = true;
    if (filled_ - begin_ >= 3 && std::memcmp(buffer_->bytes + begin_, "\xEF\xBB\xBF", 3) == 0)
      begin_ += 3;
  }
  return Status::OK();
}

Status TextChunker::OutOfMemory(size_t capacity) const {
  return Status::InputError(name_ + ": out of memory for a " + std::to_string(capacity >> 20) +
                            " MiB read buffer");
}

TextSpan TextChunker::Emit(size_t end, int64_t records) {
  TextSpan span;
  span.text = std::string_view(buffer_->bytes + begin_, end - begin_);
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
    const char* data = buffer_->bytes;
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
