// DecodeCsv: turns a span of whole CSV/TSV records into a Batch of TextColumns.
// Runs on any thread; the span's memory is shared, never copied.
//
// Rows: every non-empty record is one row; empty lines are skipped. A record
// that cannot be read (see csv_record.h for the dialect) is a malformed row:
// all its values null, Batch::malformed set, a MalformedRecord with one of the
// reasons, checked in this order:
//   "invalid UTF-8 at byte N of the record"   (N counts from 1)
//   "unterminated quoted field"
//   "unexpected character after closing quote in field K"   (K counts from 1)
//   "record has F fields, expected C" ("1 field" when F is 1)
// Values are views into the span (fields with doubled quotes are unescaped into
// a batch-owned arena); a value equal to one of the null values (after
// unquoting) is null. raw_records holds each row's text without its line end.
//
// Projection: when CsvLayout::kept is not empty, only the columns it marks are
// stored (the batch holds those, in input order); every field of every record
// is still scanned, so field counts, quoting and UTF-8 are judged as above.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "io/batch.h"
#include "io/null_matcher.h"
#include "io/text_chunker.h"

namespace griffin {

// What every chunk of one CSV input shares.
struct CsvLayout {
  std::string name;  // the input, for messages
  char delimiter = ',';
  char quote = '"';
  std::vector<std::string> column_names;
  // Per column of column_names: 1 to decode it. Empty: every column.
  std::vector<uint8_t> kept;
  // column_names, shared by the batches of a projected input (Batch::header_columns).
  std::shared_ptr<const std::vector<std::string>> header;
  NullMatcher nulls{{""}};
  int input_index = 0;
};

// Marks in layout->kept the columns of layout->column_names named in `wanted`
// (an empty `wanted` keeps every column).
void KeepCsvColumns(const std::vector<std::string>& wanted, CsvLayout* layout);

std::shared_ptr<Batch> DecodeCsv(const CsvLayout& layout, const TextSpan& span);

}  // namespace griffin
