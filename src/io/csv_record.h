// WalkCsvRecord: the reference, byte-at-a-time reading of one CSV record, used
// wherever a record holds a quote character (the chunker and the parser's fast
// paths handle quote-free records themselves and must agree with it).
//
// The dialect (RFC 4180, with the leniencies Griffin documents):
// - A field that starts with the quote character is quoted: it runs to the next
//   lone quote; a doubled quote inside stands for one quote; delimiters and line
//   ends inside are data. A quote anywhere else in a field is a literal byte.
// - After a closing quote only a delimiter or a line end may follow; anything
//   else makes the record malformed (the rest of the field is read unquoted).
// - A line end is "\n", "\r\n", or the end of the input (a "\r" just before the
//   end of the input is part of the line end too).
// - A quoted field without its closing quote runs to the end of the input.
#pragma once

#include <cstddef>
#include <cstring>

namespace griffin {

enum class CsvProblem { kNone, kUnterminatedQuote, kCharAfterQuote };

struct CsvRecordInfo {
  size_t end = 0;       // offset of the record's '\n', or the input size when it has none
  size_t line_end = 0;  // end of the record's text: `end` less a "\r" before it
  int64_t num_fields = 0;
  CsvProblem problem = CsvProblem::kNone;
  size_t problem_field = 0;  // 0-based field index of the problem
};

// Walks the record of data[0, size) that starts at `begin`, calling
// on_field(field_index, const char* text, size_t length, bool has_doubled_quotes)
// for each field. A quoted field's text is what lies between its quotes, still
// escaped: has_doubled_quotes says whether it needs unescaping.
template <typename OnField>
CsvRecordInfo WalkCsvRecord(const char* data, size_t size, size_t begin, char delimiter, char quote,
                            OnField&& on_field) {
  CsvRecordInfo info;
  size_t pos = begin;
  for (;;) {
    const size_t field_index = static_cast<size_t>(info.num_fields++);
    bool reported = false;  // the field's text went to on_field already
    if (pos < size && data[pos] == quote) {
      const size_t content = pos + 1;
      bool doubled = false;
      size_t close = size;  // position of the closing quote
      size_t search = content;
      while (search < size) {
        const void* hit = std::memchr(data + search, quote, size - search);
        if (hit == nullptr) break;
        size_t q = static_cast<const char*>(hit) - data;
        if (q + 1 < size && data[q + 1] == quote) {
          doubled = true;
          search = q + 2;
          continue;
        }
        close = q;
        break;
      }
      if (close == size) {  // unterminated: runs to the end of the input
        on_field(field_index, data + content, size - content, doubled);
        info.problem = CsvProblem::kUnterminatedQuote;
        info.problem_field = field_index;
        info.end = info.line_end = size;
        return info;
      }
      on_field(field_index, data + content, close - content, doubled);
      reported = true;
      pos = close + 1;
      if (pos == size) {
        info.end = info.line_end = size;
        return info;
      }
      char c = data[pos];
      if (c == delimiter) {
        ++pos;
        continue;
      }
      if (c == '\n') {
        info.end = info.line_end = pos;
        return info;
      }
      if (c == '\r' && (pos + 1 == size || data[pos + 1] == '\n')) {
        info.line_end = pos;
        info.end = pos + 1 == size ? size : pos + 1;
        return info;
      }
      if (info.problem == CsvProblem::kNone) {
        info.problem = CsvProblem::kCharAfterQuote;
        info.problem_field = field_index;
      }
      // Read the rest of the field as unquoted text (the record is malformed).
    }
    const size_t start = pos;
    while (pos < size && data[pos] != delimiter && data[pos] != '\n') ++pos;
    size_t stop = pos;
    const bool at_line_end = pos == size || data[pos] == '\n';
    if (at_line_end && stop > start && data[stop - 1] == '\r') --stop;
    if (!reported) on_field(field_index, data + start, stop - start, false);
    if (!at_line_end) {
      ++pos;
      continue;
    }
    info.end = pos;
    info.line_end = stop;
    return info;
  }
}

}  // namespace griffin
