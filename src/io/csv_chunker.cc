#include "io/csv_chunker.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <unordered_set>

#include "io/byte_mask.h"
#include "io/csv_parser.h"
#include "io/csv_record.h"
#include "io/utf8.h"

namespace griffin {
namespace {

auto IgnoreField = [](size_t, const char*, size_t, bool) {};

class CsvChunk : public Chunk {
 public:
  CsvChunk(std::shared_ptr<const CsvLayout> layout, TextSpan span)
      : layout_(std::move(layout)), span_(std::move(span)) {}
  Result<std::shared_ptr<Batch>> Decode() override { return DecodeCsv(*layout_, span_); }

 private:
  std::shared_ptr<const CsvLayout> layout_;
  TextSpan span_;
};

bool IsBlankRecord(std::string_view record) {
  return record.empty() || record == "\n" || record == "\r\n" || record == "\r";
}

Status TooManyColumns(const std::string& name, int64_t columns) {
  return Status::InputError(name + ":1: the record has " + std::to_string(columns) + " fields; at most " +
                            std::to_string(kMaxColumns) + " columns are supported");
}

class CsvSource : public InputSource {
 public:
  CsvSource(std::unique_ptr<ByteStream> in, std::string name, const ReadOptions& options,
            char delimiter, int input_index, int64_t total_bytes)
      : scanner_(delimiter, options.quote),
        chunker_(std::move(in), &scanner_, name, options.batch_rows, options.chunk_bytes),
        header_(options.header),
        total_bytes_(total_bytes) {
    // GRIFFIN_NO_CSV_PROJECTION=1 decodes every column (a diagnostic switch for
    // differential tests and benchmarks: the reports must not change).
    if (options.project_text_columns && std::getenv("GRIFFIN_NO_CSV_PROJECTION") == nullptr)
      wanted_ = options.json_columns;
    auto layout = std::make_shared<CsvLayout>();
    layout->name = std::move(name);
    layout->delimiter = delimiter;
    layout->quote = options.quote;
    layout->nulls = NullMatcher(options.null_values);
    layout->input_index = input_index;
    layout_ = std::move(layout);
  }

  Result<std::unique_ptr<Chunk>> NextChunk() override {
    if (done_) return std::unique_ptr<Chunk>();
    if (!started_) {
      started_ = true;
      if (header_) RETURN_IF_ERROR(ReadHeader());
    }
    ASSIGN_OR_RETURN(TextSpan span, chunker_.Next());
    if (span.num_records == 0) {
      done_ = true;
      if (emitted_) return std::unique_ptr<Chunk>();
      span.text = std::string_view();  // one empty batch carries the columns
    }
    if (!header_ && layout_->column_names.empty() && !span.text.empty()) {
      int64_t fields = CountCsvFields(span.text, layout_->delimiter, layout_->quote);
      if (fields > kMaxColumns) return TooManyColumns(layout_->name, fields);
      for (int64_t i = 1; i <= fields; ++i) layout_->column_names.push_back("column_" + std::to_string(i));
      KeepCsvColumns(wanted_, layout_.get());
    }
    emitted_ = true;
    return std::unique_ptr<Chunk>(std::make_unique<CsvChunk>(layout_, std::move(span)));
  }

  int64_t bytes_read() const override { return chunker_.bytes_consumed(); }
  int64_t total_bytes() const override { return total_bytes_; }
  bool is_text() const override { return true; }

 private:
  Status ReadHeader() {
    for (;;) {
      ASSIGN_OR_RETURN(TextSpan span, chunker_.Next(/*max_records=*/1));
      if (span.num_records == 0) return Status::OK();  // empty input: no columns
      if (IsBlankRecord(span.text)) continue;
      ASSIGN_OR_RETURN(layout_->column_names, ParseCsvHeader(span.text, layout_->delimiter,
                                                             layout_->quote, layout_->name));
      KeepCsvColumns(wanted_, layout_.get());
      return Status::OK();
    }
  }

  CsvRecordScanner scanner_;
  TextChunker chunker_;
  std::shared_ptr<CsvLayout> layout_;  // filled before the first chunk, then read only
  bool header_;
  std::vector<std::string> wanted_;  // ReadOptions::project_text_columns: the columns to keep
  int64_t total_bytes_;
  bool started_ = false, emitted_ = false, done_ = false;
};

}  // namespace

size_t CsvRecordScanner::Scan(const char* data, size_t size, size_t begin, size_t stop_at,
                              int64_t max_records, int64_t* num_records) {
  // Line ends are found 64 bytes at a time; a record holding a quote is walked
  // byte by byte (its end may lie past newlines inside quotes).
  size_t record_start = begin;  // start of the first record not yet counted
  size_t block = begin;
  int64_t records = 0;
  uint64_t newlines = ByteMaskAt(data, size, block, '\n', '\n', '\n');
  uint64_t quotes = ByteMaskAt(data, size, block, quote_, quote_, quote_);
  while (records < max_records && block < size) {
    // Newlines before the block's first quote end quote-free records.
    uint64_t before_quote = quotes ? newlines & ((quotes & -quotes) - 1) : newlines;
    while (before_quote != 0 && records < max_records) {
      size_t line_end = block + static_cast<size_t>(__builtin_ctzll(before_quote));
      before_quote &= before_quote - 1;
      newlines &= newlines - 1;
      ++records;
      record_start = line_end + 1;
      if (record_start >= stop_at) goto done;
    }
    if (records >= max_records) break;
    if (quotes != 0) {
      CsvRecordInfo info = WalkCsvRecord(data, size, record_start, delimiter_, quote_, IgnoreField);
      if (info.end >= size) break;  // not complete in the data
      ++records;
      record_start = info.end + 1;
      if (record_start >= stop_at) break;
      block = record_start;
    } else {
      block += 64;
    }
    newlines = ByteMaskAt(data, size, block, '\n', '\n', '\n');
    quotes = ByteMaskAt(data, size, block, quote_, quote_, quote_);
  }
done:
  *num_records += records;
  return record_start;
}

Result<std::vector<std::string>> ParseCsvHeader(std::string_view record, char delimiter, char quote,
                                                const std::string& name) {
  const std::string where = name + ":1: ";
  size_t bad = FindInvalidUtf8(record);
  if (bad != std::string_view::npos)
    return Status::InputError(where + "malformed header: invalid UTF-8 at byte " +
                              std::to_string(bad + 1));
  std::vector<std::string> names;
  int64_t num_fields = 0;
  CsvRecordInfo info = WalkCsvRecord(
      record.data(), record.size(), 0, delimiter, quote,
      [&](size_t, const char* text, size_t length, bool doubled) {
        if (++num_fields > kMaxColumns) return;  // counted, not kept
        std::string field(text, length);
        if (doubled) {
          std::string unescaped;
          for (size_t i = 0; i < field.size(); ++i) {
            unescaped.push_back(field[i]);
            if (field[i] == quote && i + 1 < field.size() && field[i + 1] == quote) ++i;
          }
          field = std::move(unescaped);
        }
        names.push_back(std::move(field));
      });
  if (info.problem == CsvProblem::kUnterminatedQuote)
    return Status::InputError(where + "malformed header: unterminated quoted field");
  if (info.problem == CsvProblem::kCharAfterQuote)
    return Status::InputError(where + "malformed header: unexpected character after closing quote in field " +
                              std::to_string(info.problem_field + 1));
  if (num_fields > kMaxColumns) return TooManyColumns(name, num_fields);
  std::unordered_set<std::string> seen;
  for (const std::string& column : names) {
    if (!seen.insert(column).second)
      return Status::InputError(where + "duplicate column name \"" + column + "\" in the header");
  }
  return names;
}

int64_t CountCsvFields(std::string_view text, char delimiter, char quote) {
  size_t pos = 0;
  while (pos < text.size()) {
    CsvRecordInfo info = WalkCsvRecord(text.data(), text.size(), pos, delimiter, quote, IgnoreField);
    if (info.line_end > pos) return info.num_fields;
    pos = info.end + 1;  // an empty line
  }
  return 0;
}

std::unique_ptr<InputSource> MakeCsvSource(std::unique_ptr<ByteStream> in, std::string name,
                                           const ReadOptions& options, char delimiter,
                                           int input_index, int64_t total_bytes) {
  return std::make_unique<CsvSource>(std::move(in), std::move(name), options, delimiter,
                                     input_index, total_bytes);
}

}  // namespace griffin
