// ByteStream: a sequential reader of bytes from a file, standard input, or a
// decompressor wrapped around another ByteStream. Used on one thread only.
//
//   ASSIGN_OR_RETURN(auto in, OpenByteStream("data.csv.gz", Compression::kGzip));
//   char buf[65536];
//   ASSIGN_OR_RETURN(size_t n, in->Read(buf, sizeof buf));  // 0 at the end
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "util/status.h"

namespace griffin {

enum class Compression { kNone, kGzip, kZstd };

class ByteStream {
 public:
  virtual ~ByteStream() = default;
  // Reads up to `n` bytes into `buf`; returns 0 only at the end of the stream.
  // Errors (an I/O error, corrupt or truncated compressed data) are InputErrors
  // naming the file.
  virtual Result<size_t> Read(char* buf, size_t n) = 0;
  // Bytes taken from the underlying file so far (compressed bytes for a
  // decompressor). Safe to call from any thread.
  virtual int64_t bytes_consumed() const = 0;
};

// Reads `fd` (not closed unless `owns_fd`). `name` names the input in errors.
std::unique_ptr<ByteStream> MakeFdStream(int fd, std::string name, bool owns_fd);

// Reads `data` in place (no copy); the bytes must outlive the stream. For
// inputs already in memory, such as a request body.
std::unique_ptr<ByteStream> MakeMemoryStream(std::string_view data);

// Wraps `inner` in a gzip decompressor (concatenated members are read in turn)
// or a zstd decompressor (concatenated frames too). A stream that ends inside a
// member or frame gives "NAME: truncated gzip stream" ("... zstd stream").
std::unique_ptr<ByteStream> MakeGzipStream(std::unique_ptr<ByteStream> inner, std::string name);
std::unique_ptr<ByteStream> MakeZstdStream(std::unique_ptr<ByteStream> inner, std::string name);

// Opens `path` ("-" is standard input) and decompresses as `compression` says.
Result<std::unique_ptr<ByteStream>> OpenByteStream(const std::string& path,
                                                   Compression compression);

// Reads until `n` bytes are read or the stream ends; returns the count.
Result<size_t> ReadFully(ByteStream& in, char* buf, size_t n);

}  // namespace griffin
