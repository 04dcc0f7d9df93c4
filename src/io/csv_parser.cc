#include "io/csv_parser.h"

#include <algorithm>
#include <cstring>

#include "io/arena.h"
#include "io/byte_mask.h"
#include "io/csv_record.h"
#include "io/utf8.h"
#include "util/count_of.h"


namespace griffin {
namespace {

// Builds one batch; the per-row output goes straight into presized vectors.
class CsvDecoder {
 public:
  CsvDecoder(const CsvLayout& layout, const TextSpan& span)
      : layout_(layout), data_(span.text.data()), size_(span.text.size()),
        num_columns_(layout.column_names.size()) {
    batch_ = std::make_shared<Batch>();
    batch_->input_index = layout.input_index;
    if (span.owner) batch_->owned_memory.push_back(span.owner);
    const size_t max_rows = static_cast<size_t>(span.num_records);
    // values_/nulls_ are indexed by field; a column not kept has null pointers.
    values_.assign(num_columns_, nullptr);
    nulls_.assign(num_columns_, nullptr);
    const bool all = layout.kept.empty();
    size_t num_kept = 0;
    for (size_t c = 0; c < num_columns_; ++c) num_kept += all || layout.kept[c];
    batch_->columns.resize(num_kept);
    if (num_kept < num_columns_) batch_->header_columns = layout.header;
    for (size_t c = 0, k = 0; c < num_columns_; ++c) {
      if (!all && !layout.kept[c]) continue;
      BatchColumn& column = batch_->columns[k++];
      column.name = layout.column_names[c];
      column.text.values.resize(max_rows);
      column.text.is_null.resize(max_rows);
      values_[c] = column.text.values.data();
      nulls_[c] = column.text.is_null.data();
    }
    batch_->raw_records.resize(max_rows);
    utf8_ok_ = IsValidUtf8(span.text);
  }

  std::shared_ptr<Batch> Run() {
    // The hot loop keeps its state in locals: the is_null stores (uint8_t)
    // may alias anything, so members would be reloaded after each of them.
    const char* const data = data_;
    const size_t size = size_;
    const char delimiter = layout_.delimiter;
    const size_t num_columns = num_columns_;
    std::string_view* const* values = values_.data();
    uint8_t* const* nulls = nulls_.data();
    std::string_view* raw_records = batch_->raw_records.data();
    const NullMatcher& null_matcher = layout_.nulls;
    const char quote = layout_.quote;
    const bool utf8_ok = utf8_ok_;

    size_t block = 0;
    uint64_t mask = ByteMaskAt(data, size, 0, delimiter, '\n', quote);
    size_t pos = 0;
    while (pos < size) {
      const size_t begin = pos;
      size_t field_start = pos;
      size_t field_index = 0;
      for (;;) {
        size_t p;
        while (mask == 0) {
          block += 64;
          if (block >= size) break;
          mask = ByteMaskAt(data, size, block, delimiter, '\n', quote);
        }
        if (mask == 0) {
          p = size;
        } else {
          p = block + static_cast<size_t>(__builtin_ctzll(mask));
          mask &= mask - 1;
        }
        const char c = p < size ? data[p] : '\n';
        if (c == delimiter) {
          if (field_index < num_columns && values[field_index] != nullptr) {
            std::string_view value(data + field_start, p - field_start);
            values[field_index][row_] = value;
            nulls[field_index][row_] = null_matcher.Match(value);
          }
          ++field_index;
          field_start = p + 1;
        } else if (c == '\n') {
          size_t line_end = p;
          if (line_end > field_start && data[line_end - 1] == '\r') --line_end;
          pos = p + 1;
          if (line_end == begin) break;  // an empty line is not a row
          if (field_index < num_columns && values[field_index] != nullptr) {
            std::string_view value(data + field_start, line_end - field_start);
            values[field_index][row_] = value;
            nulls[field_index][row_] = null_matcher.Match(value);
          }
          ++field_index;
          if (field_index == num_columns && utf8_ok) {
            raw_records[row_] = std::string_view(data + begin, line_end - begin);
            ++row_;
          } else {
            FinishRow(begin, line_end, field_index, CsvProblem::kNone, 0);
          }
          break;
        } else if (p == field_start) {  // a quoted field: the careful way
          pos = DecodeQuotedRecord(begin);
          block = pos;
          mask = ByteMaskAt(data, size, pos, delimiter, '\n', quote);
          break;
        }  // else a literal quote inside an unquoted field
      }
    }
    return FinishTextBatch(std::move(batch_), row_, std::move(arena_));
  }

 private:
  void SetField(size_t field_index, std::string_view value) {
    if (field_index >= num_columns_ || values_[field_index] == nullptr) return;
    values_[field_index][row_] = value;
    nulls_[field_index][row_] = layout_.nulls.Match(value);
  }

  size_t DecodeQuotedRecord(size_t begin) {
    CsvRecordInfo info = WalkCsvRecord(
        data_, size_, begin, layout_.delimiter, layout_.quote,
        [this](size_t field_index, const char* text, size_t length, bool doubled) {
          if (field_index >= num_columns_ || values_[field_index] == nullptr) return;
          SetField(field_index, doubled ? Unescape(text, length) : std::string_view(text, length));
        });
    size_t line_end = info.line_end;
    if (info.problem == CsvProblem::kUnterminatedQuote) {  // drop the input's final line end
      if (line_end > begin && data_[line_end - 1] == '\n') --line_end;
      if (line_end > begin && data_[line_end - 1] == '\r') --line_end;
    }
    FinishRow(begin, line_end, info.num_fields, info.problem, info.problem_field);
    return info.end < size_ ? info.end + 1 : size_;
  }

  std::string_view Unescape(const char* text, size_t length) {
    if (!arena_) arena_ = std::make_shared<Arena>();
    char* out = arena_->Allocate(length);
    size_t n = 0;
    for (size_t i = 0; i < length; ++i) {
      out[n++] = text[i];
      if (text[i] == layout_.quote && i + 1 < length && text[i + 1] == layout_.quote) ++i;
    }
    return std::string_view(out, n);
  }

  void FinishRow(size_t begin, size_t line_end, size_t num_fields, CsvProblem problem,
                 size_t problem_field) {
    std::string_view raw(data_ + begin, line_end - begin);
    batch_->raw_records[row_] = raw;
    std::string reason;
    size_t bad_byte = utf8_ok_ ? std::string_view::npos : FindInvalidUtf8(raw);
    if (bad_byte != std::string_view::npos) {
      reason = "invalid UTF-8 at byte " + std::to_string(bad_byte + 1) + " of the record";
    } else if (problem == CsvProblem::kUnterminatedQuote) {
      reason = "unterminated quoted field";
    } else if (problem == CsvProblem::kCharAfterQuote) {
      reason = "unexpected character after closing quote in field " +
               std::to_string(problem_field + 1);
    } else if (num_fields != num_columns_) {
      reason = "record has " + CountOf(static_cast<int64_t>(num_fields), "field") + ", expected " +
               std::to_string(num_columns_);
    }
    if (!reason.empty()) MarkMalformed(raw, std::move(reason));
    ++row_;
  }

  void MarkMalformed(std::string_view raw, std::string reason) {
    if (batch_->malformed.empty()) batch_->malformed.resize(batch_->raw_records.size());
    batch_->malformed[row_] = 1;
    for (size_t c = 0; c < num_columns_; ++c) {
      if (values_[c] == nullptr) continue;
      values_[c][row_] = std::string_view();
      nulls_[c][row_] = 1;
    }
    batch_->malformed_records.push_back({row_, std::string(raw), std::move(reason)});
  }

  const CsvLayout& layout_;
  const char* data_;
  size_t size_;
  size_t num_columns_;
  std::shared_ptr<Batch> batch_;
  std::shared_ptr<Arena> arena_;
  std::vector<std::string_view*> values_;
  std::vector<uint8_t*> nulls_;
  int64_t row_ = 0;
  bool utf8_ok_ = true;
};

}  // namespace

void KeepCsvColumns(const std::vector<std::string>& wanted, CsvLayout* layout) {
  layout->kept.clear();
  layout->header.reset();
  if (wanted.empty()) return;
  layout->header = std::make_shared<const std::vector<std::string>>(layout->column_names);
  layout->kept.resize(layout->column_names.size());
  for (size_t c = 0; c < layout->column_names.size(); ++c)
    layout->kept[c] = std::find(wanted.begin(), wanted.end(), layout->column_names[c]) != wanted.end();
}

std::shared_ptr<Batch> DecodeCsv(const CsvLayout& layout, const TextSpan& span) {
  return CsvDecoder(layout, span).Run();
}

}  // namespace griffin
