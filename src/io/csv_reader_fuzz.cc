// libFuzzer target: bytes -> CSV chunker -> DecodeCsv, with small batches and
// chunks so that record boundaries fall everywhere. Checks that chunking does
// not change the rows, that batches respect batch_rows, that malformed records
// are consistent, and that every view lies inside the batch's memory.
//
//   clang++ -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -Isrc \
//     -I<pyarrow>/include src/io/csv_reader_fuzz.cc src/io/{csv_chunker,csv_parser,
//     text_chunker,byte_stream,utf8}.cc -lsimdjson -lzstd -lz -o csv_reader_fuzz
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "io/byte_stream.h"
#include "io/csv_chunker.h"
#include "io/csv_parser.h"

namespace griffin {
namespace {

// Hands out the input in pieces of varying size, as a pipe would.
class MemoryStream : public ByteStream {
 public:
  explicit MemoryStream(std::string_view bytes) : bytes_(bytes) {}
  Result<size_t> Read(char* buf, size_t n) override {
    size_t piece = std::min({n, bytes_.size() - at_, size_t{1} + (at_ * 7919) % 97});
    std::memcpy(buf, bytes_.data() + at_, piece);
    at_ += piece;
    return piece;
  }
  int64_t bytes_consumed() const override { return static_cast<int64_t>(at_); }

 private:
  std::string_view bytes_;
  size_t at_ = 0;
};

void Check(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "invariant failed: %s\n", what);
    std::abort();
  }
}

// Reads everything; returns rows as strings ("" for a malformed row's cells).
std::vector<std::string> ReadRows(std::string_view input, const ReadOptions& options, bool* failed) {
  std::vector<std::string> rows;
  auto source = MakeCsvSource(std::make_unique<MemoryStream>(input), "fuzz.csv", options, ',', 0,
                              static_cast<int64_t>(input.size()));
  for (;;) {
    auto chunk = source->NextChunk();
    if (!chunk.ok()) {
      *failed = true;
      return rows;
    }
    if (*chunk == nullptr) break;
    auto decoded = (*chunk)->Decode();
    Check(decoded.ok(), "CSV decoding never fails");
    const Batch& batch = **decoded;
    Check(batch.num_rows <= options.batch_rows, "batch_rows respected");
    Check(batch.raw_records.size() == static_cast<size_t>(batch.num_rows), "raw_records per row");
    Check(batch.malformed.empty() || batch.malformed.size() == static_cast<size_t>(batch.num_rows),
          "malformed sized");
    int64_t last_malformed = -1;
    for (const MalformedRecord& record : batch.malformed_records) {
      Check(record.row_in_batch > last_malformed && record.row_in_batch < batch.num_rows,
            "malformed records ordered and in range");
      Check(batch.IsMalformed(record.row_in_batch), "malformed flag set");
      Check(!record.reason.empty(), "a reason");
      last_malformed = record.row_in_batch;
    }
    std::string_view input_view = input;
    for (int64_t row = 0; row < batch.num_rows; ++row) {
      std::string line(batch.raw_records[row]);
      Check(line.empty() || input_view.find(line) != std::string_view::npos, "raw record from input");
      for (const BatchColumn& column : batch.columns) {
        Check(column.text.values.size() == static_cast<size_t>(batch.num_rows), "values per row");
        std::string_view value = column.text.values[row];
        if (batch.IsMalformed(row)) Check(column.text.is_null[row] && value.empty(), "malformed is null");
        // A view either lies in the row's raw text or was unescaped (has a quote).
        bool in_raw = value.data() >= batch.raw_records[row].data() &&
                      value.data() + value.size() <=
                          batch.raw_records[row].data() + batch.raw_records[row].size();
        Check(value.empty() || in_raw || value.find('"') != std::string_view::npos,
              "value inside the record or unescaped");
        line += '\x1f';
        line += std::string(value);
      }
      line += batch.IsMalformed(row) ? "\x1eM" : "\x1eO";
      rows.push_back(std::move(line));
    }
  }
  Check(source->bytes_read() == static_cast<int64_t>(input.size()), "all input consumed");
  return rows;
}

}  // namespace
}  // namespace griffin

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace griffin;
  if (size < 1) return 0;
  const uint8_t control = data[0];
  std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  ReadOptions small;
  small.batch_rows = 1 + (control & 7);
  small.chunk_bytes = 1 + ((control >> 3) & 15) * 4;
  small.header = (control & 0x80) != 0;
  small.null_values = {"", "NA"};
  ReadOptions whole = small;
  whole.batch_rows = 1 << 20;
  whole.chunk_bytes = 1 << 20;
  bool small_failed = false, whole_failed = false;
  auto small_rows = ReadRows(input, small, &small_failed);
  auto whole_rows = ReadRows(input, whole, &whole_failed);
  Check(small_failed == whole_failed, "same header verdict");
  if (!small_failed) Check(small_rows == whole_rows, "chunking does not change rows");
  return 0;
}
