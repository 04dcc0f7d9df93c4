// The reading side of CSV/TSV inputs: finding record boundaries (quote-aware),
// reading the header, and the InputSource that hands out chunks for
// DecodeCsv (csv_parser.h) to decode on worker threads.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "io/byte_stream.h"
#include "io/input_source.h"
#include "io/text_chunker.h"

namespace griffin {

// Finds CSV record ends as WalkCsvRecord (csv_record.h) does, fast on
// quote-free data (memchr for '\n', and for the quote over a window ahead).
class CsvRecordScanner : public RecordScanner {
 public:
  CsvRecordScanner(char delimiter, char quote) : delimiter_(delimiter), quote_(quote) {}
  size_t Scan(const char* data, size_t size, size_t begin, size_t stop_at, int64_t max_records,
              int64_t* num_records) override;

 private:
  char delimiter_, quote_;
};

// Reads the header record `record` (one record, with or without its line end)
// into column names. A malformed header or a repeated name is an InputError
// "NAME:1: ...".
Result<std::vector<std::string>> ParseCsvHeader(std::string_view record, char delimiter, char quote,
                                                const std::string& name);

// The number of fields of the first record of `text`.
int64_t CountCsvFields(std::string_view text, char delimiter, char quote);

// A source over one CSV/TSV stream. With options.header the first non-empty
// record names the columns; without, they are column_1..column_N after the
// first record's field count. Every input gives at least one batch (a header
// only or empty input gives one batch of zero rows), so the engine always
// sees the columns. `total_bytes` is reported as is (-1: unknown).
std::unique_ptr<InputSource> MakeCsvSource(std::unique_ptr<ByteStream> in, std::string name,
                                           const ReadOptions& options, char delimiter,
                                           int input_index, int64_t total_bytes);

}  // namespace griffin
