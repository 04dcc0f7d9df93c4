// CSV/TSV outputs: RFC 4180 (fields quoted only when they hold the delimiter,
// a quote or a line break; quotes doubled), "\n" line ends, a header line.
// Rows of a CSV input with the same delimiter and quote are copied byte for
// byte, with the added fields appended. A batch's rows are encoded into one
// text piece (on any thread) and appended whole.
#include <string>

#include "sinks/file_row_sink.h"
#include "sinks/value_text.h"

namespace griffin {
namespace {

class CsvSink : public FileRowSink {
 public:
  CsvSink(std::unique_ptr<AtomicFile> file, SinkKind kind, const SinkOptions& options)
      : FileRowSink(std::move(file), kind, options), delimiter_(options.csv_delimiter) {}

 protected:
  Status Begin(const Batch* first) override {
    std::vector<std::string_view> names(column_names().begin(), column_names().end());
    if (quarantine()) {
      names.push_back(kRowColumn);
      names.push_back(kErrorsColumn);
      names.push_back(kRawColumn);
    }
    if (tagged()) names.push_back(kVersionColumn);
    std::string header;
    for (size_t i = 0; i < names.size(); ++i) {
      if (i) header.push_back(delimiter_);
      AppendField(names[i], names.size() == 1, &header);
    }
    header.push_back('\n');
    return file()->Append(header);
  }

  Result<std::unique_ptr<EncodedRows>> EncodeRows(const RowVerdicts& verdicts,
                                                  const std::vector<int32_t>& rows) const override {
    const Batch& batch = *verdicts.batch;
    const bool copy_raw = IsDelimitedTextBatch(batch) && InputDelimiter(batch.input_index) == delimiter_ &&
                          options().input_quote == '"';
    const size_t num_columns = batch.columns.size();
    const size_t num_fields = num_columns + (quarantine() ? 3 : 0) + (tagged() ? 1 : 0);
    auto piece = std::make_unique<EncodedText>();
    std::string& out = piece->text;
    if (copy_raw) {
      size_t bytes = 0;
      for (int32_t r : rows) bytes += batch.raw_records[r].size() + 1;
      out.reserve(bytes);
    }
    std::string scratch;
    for (size_t i = 0; i < rows.size(); ++i) {
      const int64_t r = rows[i];
      const bool malformed = batch.IsMalformed(r);
      if (copy_raw && !malformed) {
        out.append(batch.raw_records[r]);
      } else {
        for (size_t c = 0; c < num_columns; ++c) {
          if (c) out.push_back(delimiter_);
          if (malformed && !batch.columns[c].array) {  // a typed row flagged malformed keeps its values
            if (num_fields == 1) out.append("\"\"");
            continue;
          }
          scratch.clear();
          AppendValueText(batch.columns[c], r, &scratch);
          AppendField(scratch, num_fields == 1, &out);
        }
      }
      if (quarantine()) {
        if (num_columns) out.push_back(delimiter_);
        out.append(std::to_string(verdicts.base_row + r));
        out.push_back(delimiter_);
        scratch.clear();
        AppendErrorsJson(verdicts, i, &scratch);
        AppendField(scratch, false, &out);
        out.push_back(delimiter_);
        if (malformed) AppendField(MalformedRawText(batch, r), false, &out);
      }
      if (tagged()) {
        if (num_columns) out.push_back(delimiter_);
        out.append(std::to_string(*options().version_tag));
      }
      out.push_back('\n');
    }
    return std::unique_ptr<EncodedRows>(std::move(piece));
  }

  Status AppendRows(std::unique_ptr<EncodedRows> piece) override {
    return file()->Append(static_cast<const EncodedText&>(*piece).text);
  }

  Status Finish() override { return Status::OK(); }

 private:
  char InputDelimiter(int input_index) const {
    const auto& per_input = options().input_delimiters;
    if (input_index >= 0 && static_cast<size_t>(input_index) < per_input.size()) return per_input[input_index];
    return options().input_delimiter;
  }

  // Appends one field, quoted when it must be. `only_field`: the row has no
  // other field, so an empty value is written "" (an empty line is no row).
  void AppendField(std::string_view value, bool only_field, std::string* out) const {
    bool quote = value.empty() && only_field;
    for (char c : value) {
      if (c == delimiter_ || c == '"' || c == '\n' || c == '\r') {
        quote = true;
        break;
      }
    }
    if (!quote) {
      out->append(value);
      return;
    }
    out->push_back('"');
    for (char c : value) {
      if (c == '"') out->push_back('"');
      out->push_back(c);
    }
    out->push_back('"');
  }

  const char delimiter_;
};

}  // namespace

std::unique_ptr<RowSink> MakeCsvSink(std::unique_ptr<AtomicFile> file, SinkKind kind, const SinkOptions& options) {
  return std::make_unique<CsvSink>(std::move(file), kind, options);
}

}  // namespace griffin
