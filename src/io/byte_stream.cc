#include "io/byte_stream.h"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

namespace griffin {
namespace {

// Compressed input is read in pieces of this size.
constexpr size_t kCompressedReadSize = 256 << 10;

class FdStream : public ByteStream {
 public:
  FdStream(int fd, std::string name, bool owns_fd)
      : fd_(fd), name_(std::move(name)), owns_fd_(owns_fd) {}
  ~FdStream() override {
    if (owns_fd_) ::close(fd_);
  }

  Result<size_t> Read(char* buf, size_t n) override {
    for (;;) {
      ssize_t got = ::read(fd_, buf, n);
      if (got >= 0) {
        consumed_.fetch_add(got, std::memory_order_relaxed);
        return static_cast<size_t>(got);
      }
      if (errno == EINTR) continue;
      return Status::InputError(name_ + ": " + std::strerror(errno));
    }
  }
  int64_t bytes_consumed() const override { return consumed_.load(std::memory_order_relaxed); }

 private:
  int fd_;
  std::string name_;
  bool owns_fd_;
  std::atomic<int64_t> consumed_{0};
};

class MemoryStream : public ByteStream {
 public:
  explicit MemoryStream(std::string_view data) : data_(data) {}

  Result<size_t> Read(char* buf, size_t n) override {
    const size_t at = consumed_.load(std::memory_order_relaxed);
    const size_t count = std::min(n, data_.size() - at);
    std::memcpy(buf, data_.data() + at, count);
    consumed_.store(at + count, std::memory_order_relaxed);
    return count;
  }
  int64_t bytes_consumed() const override { return consumed_.load(std::memory_order_relaxed); }

 private:
  std::string_view data_;
  std::atomic<size_t> consumed_{0};
};

// Shared input buffering of the decompressors.
class DecompressingStream : public ByteStream {
 public:
  DecompressingStream(std::unique_ptr<ByteStream> inner, std::string name)
      : inner_(std::move(inner)), name_(std::move(name)), in_buf_(kCompressedReadSize) {}
  int64_t bytes_consumed() const override { return inner_->bytes_consumed(); }

 protected:
  // Refills the input buffer when it is empty; false at the end of the input.
  Result<bool> EnsureInput() {
    if (in_pos_ < in_len_) return true;
    if (inner_eof_) return false;
    ASSIGN_OR_RETURN(size_t got, inner_->Read(in_buf_.data(), in_buf_.size()));
    in_pos_ = 0;
    in_len_ = got;
    if (got == 0) inner_eof_ = true;
    return got > 0;
  }

  std::unique_ptr<ByteStream> inner_;
  std::string name_;
  std::vector<char> in_buf_;
  size_t in_pos_ = 0, in_len_ = 0;
  bool inner_eof_ = false;
};

class GzipStream : public DecompressingStream {
 public:
  using DecompressingStream::DecompressingStream;
  ~GzipStream() override {
    if (initialized_) inflateEnd(&z_);
  }

  Result<size_t> Read(char* buf, size_t n) override {
    if (n == 0 || done_) return size_t{0};
    if (!initialized_) {
      std::memset(&z_, 0, sizeof z_);
      if (inflateInit2(&z_, 15 + 16) != Z_OK) return Status::Internal("inflateInit2 failed");
      initialized_ = true;
    }
    size_t produced = 0;
    while (produced == 0) {
      ASSIGN_OR_RETURN(bool have_input, EnsureInput());
      if (!have_input) {
        done_ = true;
        if (in_member_) return Status::InputError(name_ + ": truncated gzip stream");
        return produced;
      }
      z_.next_in = reinterpret_cast<Bytef*>(in_buf_.data() + in_pos_);
      z_.avail_in = static_cast<uInt>(in_len_ - in_pos_);
      z_.next_out = reinterpret_cast<Bytef*>(buf);
      z_.avail_out = static_cast<uInt>(n > (1u << 30) ? (1u << 30) : n);
      uInt avail_out_before = z_.avail_out;
      in_member_ = true;
      int rc = inflate(&z_, Z_NO_FLUSH);
      in_pos_ = in_len_ - z_.avail_in;
      produced = avail_out_before - z_.avail_out;
      if (rc == Z_STREAM_END) {
        in_member_ = false;  // a following member, if any, starts afresh
        inflateReset(&z_);
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        done_ = true;
        return Status::InputError(name_ + ": invalid gzip data (" +
                                  (z_.msg ? z_.msg : "inflate failed") + ")");
      }
    }
    return produced;
  }

 private:
  z_stream z_;
  bool initialized_ = false;
  bool in_member_ = false;
  bool done_ = false;
};

class ZstdStream : public DecompressingStream {
 public:
  using DecompressingStream::DecompressingStream;
  ~ZstdStream() override { ZSTD_freeDStream(ds_); }

  Result<size_t> Read(char* buf, size_t n) override {
    if (n == 0 || done_) return size_t{0};
    if (ds_ == nullptr) ds_ = ZSTD_createDStream();
    size_t produced = 0;
    while (produced == 0) {
      ASSIGN_OR_RETURN(bool have_input, EnsureInput());
      // Without input, one more call drains what zstd still holds.
      ZSTD_inBuffer in{in_buf_.data() + in_pos_, have_input ? in_len_ - in_pos_ : 0, 0};
      ZSTD_outBuffer out{buf, n, 0};
      size_t rc = ZSTD_decompressStream(ds_, &out, &in);
      if (ZSTD_isError(rc)) {
        done_ = true;
        return Status::InputError(name_ + ": invalid zstd data (" + ZSTD_getErrorName(rc) + ")");
      }
      in_pos_ += in.pos;
      produced = out.pos;
      if (in.pos > 0 || produced > 0) in_frame_ = rc != 0;  // 0: a frame ended, fully flushed
      if (!have_input && produced == 0) {
        done_ = true;
        if (in_frame_) return Status::InputError(name_ + ": truncated zstd stream");
        return produced;
      }
    }
    return produced;
  }

 private:
  ZSTD_DStream* ds_ = nullptr;
  bool in_frame_ = false;
  bool done_ = false;
};

}  // namespace

std::unique_ptr<ByteStream> MakeFdStream(int fd, std::string name, bool owns_fd) {
  return std::make_unique<FdStream>(fd, std::move(name), owns_fd);
}

std::unique_ptr<ByteStream> MakeMemoryStream(std::string_view data) {
  return std::make_unique<MemoryStream>(data);
}

std::unique_ptr<ByteStream> MakeGzipStream(std::unique_ptr<ByteStream> inner, std::string name) {
  return std::make_unique<GzipStream>(std::move(inner), std::move(name));
}

std::unique_ptr<ByteStream> MakeZstdStream(std::unique_ptr<ByteStream> inner, std::string name) {
  return std::make_unique<ZstdStream>(std::move(inner), std::move(name));
}

Result<std::unique_ptr<ByteStream>> OpenByteStream(const std::string& path,
                                                   Compression compression) {
  std::unique_ptr<ByteStream> stream;
  if (path == "-") {
    stream = MakeFdStream(STDIN_FILENO, "<stdin>", /*owns_fd=*/false);
  } else {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      if (errno == ENOENT) return Status::InputError(path + ": no such file or directory");
      return Status::InputError(path + ": " + std::strerror(errno));
    }
    stream = MakeFdStream(fd, path, /*owns_fd=*/true);
  }
  const std::string& name = path == "-" ? std::string("<stdin>") : path;
  switch (compression) {
    case Compression::kNone: return stream;
    case Compression::kGzip: return MakeGzipStream(std::move(stream), name);
    case Compression::kZstd: return MakeZstdStream(std::move(stream), name);
  }
  return stream;
}

Result<size_t> ReadFully(ByteStream& in, char* buf, size_t n) {
  size_t total = 0;
  while (total < n) {
    ASSIGN_OR_RETURN(size_t got, in.Read(buf + total, n - total));
    if (got == 0) break;
    total += got;
  }
  return total;
}

}  // namespace griffin
