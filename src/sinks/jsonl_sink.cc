// JSON lines outputs: one object per line, "\n" line ends. Rows of a JSON
// lines input keep their raw object text (every key, in its order), with the
// added keys spliced in before the closing brace; other rows are built from
// their columns. _griffin_raw appears only on malformed rows, whose input
// columns are absent.
#include <string>

#include "report/json_writer.h"
#include "sinks/file_row_sink.h"
#include "sinks/value_text.h"

namespace griffin {
namespace {

bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

class JsonLinesSink : public FileRowSink {
 public:
  using FileRowSink::FileRowSink;

 protected:
  Status Begin(const Batch* first) override {
    for (const std::string& name : column_names()) {
      std::string key;
      AppendJsonString(name, &key);
      keys_.push_back(key + ":");
    }
    return Status::OK();
  }

  Result<std::unique_ptr<EncodedRows>> EncodeRows(const RowVerdicts& verdicts,
                                                  const std::vector<int32_t>& rows) const override {
    const Batch& batch = *verdicts.batch;
    const bool splice = IsJsonLinesBatch(batch);
    auto piece = std::make_unique<EncodedText>();
    std::string& out = piece->text;
    std::string extras;
    for (size_t i = 0; i < rows.size(); ++i) {
      const int64_t r = rows[i];
      const bool malformed = batch.IsMalformed(r);
      extras.clear();
      AppendExtras(verdicts, i, r, malformed, &extras);
      if (!malformed && splice && SpliceRaw(batch.raw_records[r], extras, &out)) {
        // done
      } else {
        out.push_back('{');
        bool first = true;
        // A malformed text row has no values; a typed row flagged malformed
        // (invalid UTF-8) keeps them.
        for (size_t c = 0; c < batch.columns.size() && (!malformed || batch.columns[c].array); ++c) {
          if (!first) out.push_back(',');
          first = false;
          out.append(keys_[c]);
          AppendValueJson(batch.columns[c], r, &out);
        }
        if (!extras.empty()) {
          if (!first) out.push_back(',');
          out.append(extras);
        }
        out.push_back('}');
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
  // The added keys, without braces or a leading comma ("" when none).
  void AppendExtras(const RowVerdicts& verdicts, size_t i, int64_t r, bool malformed, std::string* out) const {
    if (quarantine()) {
      out->append("\"_griffin_row\":");
      out->append(std::to_string(verdicts.base_row + r));
      out->append(",\"_griffin_errors\":");
      AppendErrorsJson(verdicts, i, out);
      if (malformed) {
        out->append(",\"_griffin_raw\":");
        AppendJsonString(MalformedRawText(*verdicts.batch, r), out);
      }
    }
    if (tagged()) {
      out->append("\"_griffin_version\":");
      out->append(std::to_string(*options().version_tag));
    }
  }

  // Appends the raw object with `extras` spliced in; false when `raw` does
  // not end with '}' (then the caller builds the object).
  static bool SpliceRaw(std::string_view raw, const std::string& extras, std::string* out) {
    while (!raw.empty() && IsJsonSpace(raw.back())) raw.remove_suffix(1);
    if (raw.empty() || raw.back() != '}') return false;
    if (extras.empty()) {
      out->append(raw);
      return true;
    }
    raw.remove_suffix(1);
    size_t inner = raw.size();
    while (inner > 0 && IsJsonSpace(raw[inner - 1])) --inner;
    const bool empty_object = inner > 0 && raw[inner - 1] == '{';
    out->append(raw);
    if (!empty_object) out->push_back(',');
    out->append(extras);
    out->push_back('}');
    return true;
  }

  std::vector<std::string> keys_;  // per column: its name as a JSON key and ':' (set by Begin)
};

}  // namespace

std::unique_ptr<RowSink> MakeJsonLinesSink(std::unique_ptr<AtomicFile> file, SinkKind kind,
                                           const SinkOptions& options) {
  return std::make_unique<JsonLinesSink>(std::move(file), kind, options);
}

}  // namespace griffin
