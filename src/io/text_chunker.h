// TextChunker: cuts a byte stream into spans of whole records, on the reading
// thread. What a record is (a line; a CSV record whose quoted fields may hold
// newlines) is the RecordScanner's business; the chunker owns the buffers.
//
//   TextChunker chunker(std::move(stream), &scanner, name, batch_rows, chunk_bytes);
//   for (;;) {
//     ASSIGN_OR_RETURN(TextSpan span, chunker.Next());
//     if (span.num_records == 0) break;  // end of input
//     ... span.text holds span.num_records whole records ...
//   }
//
// Spans point into reference-counted buffers (TextSpan::owner); a buffer is
// never written where a span already points, so spans may be decoded on other
// threads while the chunker reads on. Every span is followed in memory by at
// least kTextPadding readable bytes (simdjson reads past the end of its input).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "io/byte_stream.h"
#include "util/status.h"

namespace griffin {

// Readable bytes after the end of every span (>= simdjson::SIMDJSON_PADDING).
constexpr size_t kTextPadding = 64;

// A record may not exceed this many bytes (a guard against an unterminated
// quote or a file without line ends holding a whole input in memory). The
// read buffer never grows past it (or one chunk, if larger), so this bounds
// a reader's memory too.
constexpr size_t kMaxRecordBytes = size_t{1} << 30;

struct TextSpan {
  std::string_view text;  // whole records; the last may lack its line end at EOF
  // Records in `text` as the scanner counts them (blank lines included), so an
  // upper bound on the rows they decode to.
  int64_t num_records = 0;
  std::shared_ptr<const void> owner;  // keeps `text` alive
};

class RecordScanner {
 public:
  virtual ~RecordScanner() = default;
  // Scans whole records of data[begin, size), each ending just past a '\n'.
  // Stops after `max_records` records, or after the first record that ends at
  // or past `stop_at`, or before a record that is not complete in the data.
  // Returns the end offset of the last whole record scanned (begin if none)
  // and adds their count to *num_records. data[size] may be read (padding).
  virtual size_t Scan(const char* data, size_t size, size_t begin, size_t stop_at,
                      int64_t max_records, int64_t* num_records) = 0;
};

class TextChunker {
 public:
  // `scanner` must outlive the chunker. `name` names the input in errors.
  TextChunker(std::unique_ptr<ByteStream> in, RecordScanner* scanner, std::string name,
              int64_t batch_rows, int64_t chunk_bytes);

  // The next span of at most `max_records` (default batch_rows) records and
  // about chunk_bytes bytes; num_records == 0 at the end of the input. A UTF-8
  // byte order mark at the very start of the input is skipped.
  Result<TextSpan> Next(int64_t max_records = 0);

  int64_t bytes_consumed() const { return in_->bytes_consumed(); }

 private:
  struct Buffer;
  // Reads into the buffer until it is full or the input ends; moves the
  // unconsumed tail into a new, larger buffer first when `grow` is set.
  Status Fill(bool grow);
  Status OutOfMemory(size_t capacity) const;
  TextSpan Emit(size_t end, int64_t records);

  std::unique_ptr<ByteStream> in_;
  RecordScanner* scanner_;
  std::string name_;
  int64_t batch_rows_;
  size_t chunk_bytes_;
  std::shared_ptr<Buffer> buffer_;
  size_t begin_ = 0;   // first unconsumed byte of buffer_
  size_t filled_ = 0;  // bytes of buffer_ holding input
  bool eof_ = false;
  bool started_ = false;  // BOM checked
};

}  // namespace griffin
