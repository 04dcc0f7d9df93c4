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

constexpr size_t kFlushBytes = 1 << 20;

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

  Status WriteRows(const RowVerdicts& verdicts, const std::vector<int32_t>& rows) override {
    const Batch& batch = *verdicts.batch;
    const bool splice = IsJsonLinesBatch(batch);
    for (size_t i = 0; i < rows.size(); ++i) {
      const int64_t r = rows[i];
      const bool malformed = batch.IsMalformed(r);
      extras_.clear();
      AppendExtras(verdicts, i, r, malformed, &extras_);
      if (!malformed && splice && SpliceRaw(batch.raw_records[r])) {
        // done
      } else {
        out_.push_back('{');
        bool first = true;
        // A malformed text row has no values; a typed row flagged malformed
        // (invalid UTF-8) keeps them.
        for (size_t c = 0; c < batch.columns.size() && (!malformed || batch.columns[c].array); ++c) {
          if (!first) out_.push_back(',');
          first = false;
          out_.append(keys_[c]);
          AppendValueJson(batch.columns[c], r, &out_);
        }
        if (!extras_.empty()) {
          if (!first) out_.push_back(',');
          out_.append(extras_);
        }
        out_.push_back('}');
      }
      out_.push_back('\n');
      if (out_.size() >= kFlushBytes) RETURN_IF_ERROR(Flush());
    }
    return Flush();
  }

  Status Finish() override { return Flush(); }

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

  // Appends the raw object with extras_ spliced in; false when `raw` does
  // not end with '}' (then the caller builds the object).
  bool SpliceRaw(std::string_view raw) {
    while (!raw.empty() && IsJsonSpace(raw.back())) raw.remove_suffix(1);
    if (raw.empty() || raw.back() != '}') return false;
    if (extras_.empty()) {
      out_.append(raw);
      return true;
    }
    raw.remove_suffix(1);
    size_t inner = raw.size();
    while (inner > 0 && IsJsonSpace(raw[inner - 1])) --inner;
    const bool empty_object = inner > 0 && raw[inner - 1] == '{';
    out_.append(raw);
    if (!empty_object) out_.push_back(',');
    out_.append(extras_);
    out_.push_back('}');
    return true;
  }

  Status Flush() {
    Status status = file()->Append(out_);
    out_.clear();
    return status;
  }

  std::vector<std::string> keys_;  // per column: its name as a JSON key and ':'
  std::string out_;
  std::string extras_;
};

}  // namespace

std::unique_ptr<RowSink> MakeJsonLinesSink(std::unique_ptr<AtomicFile> file, SinkKind kind,
                                           const SinkOptions& options) {
  return std::make_unique<JsonLinesSink>(std::move(file), kind, options);
}

}  // namespace griffin
