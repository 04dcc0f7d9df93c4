#include "connectors/objectstore/read_ahead_stream.h"

#include <arrow/buffer.h>
#include <arrow/util/future.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <deque>

namespace griffin {
namespace {

class ReadAheadStream : public ByteStream {
 public:
  ReadAheadStream(std::shared_ptr<arrow::io::RandomAccessFile> file, std::string name, int64_t size,
                  int64_t block_bytes, int depth)
      : file_(std::move(file)), name_(std::move(name)), size_(size),
        block_bytes_(std::max<int64_t>(1, block_bytes)), depth_(std::max(1, depth)) {}

  // Outstanding reads finish before the file goes away.
  ~ReadAheadStream() override {
    for (auto& pending : pending_) pending.block.Wait();
  }

  Result<size_t> Read(char* buf, size_t n) override {
    size_t copied = 0;
    while (copied < n) {
      if (current_ == nullptr || current_offset_ >= current_->size()) {
        if (current_ != nullptr) consumed_.fetch_add(current_->size(), std::memory_order_relaxed);
        current_.reset();
        current_offset_ = 0;
        Fill();
        if (pending_.empty()) break;  // the end of the file
        const int64_t length = pending_.front().length;
        arrow::Result<std::shared_ptr<arrow::Buffer>> block = pending_.front().block.result();
        pending_.pop_front();
        Fill();  // keep `depth` reads in flight while this block is consumed
        if (!block.ok()) return Status::InputError(name_ + ": read failed: " + OneLine(block.status().message()));
        if ((*block)->size() != length)
          return Status::InputError(name_ + ": the object ended early (it changed or was truncated while read)");
        current_ = *block;
      }
      const size_t take = std::min<size_t>(n - copied, static_cast<size_t>(current_->size() - current_offset_));
      std::memcpy(buf + copied, current_->data() + current_offset_, take);
      current_offset_ += static_cast<int64_t>(take);
      copied += take;
      if (copied > 0) break;  // a short read is fine: return what is here
    }
    return copied;
  }

  int64_t bytes_consumed() const override {
    return consumed_.load(std::memory_order_relaxed);
  }

 private:
  static std::string OneLine(std::string text) {
    for (char& c : text)
      if (c == '\n' || c == '\r') c = ' ';
    return text;
  }

  void Fill() {
    while (static_cast<int>(pending_.size()) < depth_ && next_offset_ < size_) {
      const int64_t length = std::min(block_bytes_, size_ - next_offset_);
      pending_.push_back({file_->ReadAsync(arrow::io::default_io_context(), next_offset_, length), length});
      next_offset_ += length;
    }
  }

  std::shared_ptr<arrow::io::RandomAccessFile> file_;
  std::string name_;
  int64_t size_;
  int64_t block_bytes_;
  int depth_;
  int64_t next_offset_ = 0;
  struct Pending {
    arrow::Future<std::shared_ptr<arrow::Buffer>> block;
    int64_t length;
  };
  std::deque<Pending> pending_;
  std::shared_ptr<arrow::Buffer> current_;
  int64_t current_offset_ = 0;
  std::atomic<int64_t> consumed_{0};
};

}  // namespace

std::unique_ptr<ByteStream> MakeReadAheadStream(std::shared_ptr<arrow::io::RandomAccessFile> file,
                                                std::string name, int64_t size, int64_t block_bytes,
                                                int depth) {
  return std::make_unique<ReadAheadStream>(std::move(file), std::move(name), size, block_bytes, depth);
}

}  // namespace griffin
