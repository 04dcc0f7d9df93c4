#include "sinks/file_row_sink.h"

#include <algorithm>

#include "report/json_writer.h"

namespace griffin {
namespace {

std::string JoinNames(const std::vector<std::string>& names) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) text += (i ? "," : "") + names[i];
  return text;
}

}  // namespace

FileRowSink::FileRowSink(std::unique_ptr<AtomicFile> file, SinkKind kind, SinkOptions options)
    : file_(std::move(file)), kind_(kind), options_(std::move(options)) {}

FileRowSink::~FileRowSink() { Abort(); }

std::string FileRowSink::InputName(int input_index) const {
  if (input_index >= 0 && static_cast<size_t>(input_index) < options_.input_names.size())
    return options_.input_names[input_index];
  return "input " + std::to_string(input_index + 1);
}

Status FileRowSink::CheckColumns(const Batch& batch) const {
  bool same = batch.columns.size() == column_names_.size();
  for (size_t c = 0; same && c < column_names_.size(); ++c) same = batch.columns[c].name == column_names_[c];
  if (same) return Status::OK();
  std::vector<std::string> names;
  for (const BatchColumn& column : batch.columns) names.push_back(column.name);
  return Status::InputError("inputs have different columns (" + InputName(first_input_) + ": " +
                            JoinNames(column_names_) + "; " + InputName(batch.input_index) + ": " +
                            JoinNames(names) + "); outputs need one schema");
}

Status FileRowSink::Prepare(const Batch& batch) {
  if (done_) return Status::Internal(file_->final_path() + ": write after commit or abort");
  if (started_) return CheckColumns(batch);
  started_ = true;
  first_input_ = batch.input_index;
  for (const BatchColumn& column : batch.columns) column_names_.push_back(column.name);
  return Begin(&batch);
}

Result<std::unique_ptr<EncodedRows>> FileRowSink::Encode(const RowVerdicts& verdicts) const {
  if (verdicts.batch == nullptr) return Status::Internal(file_->final_path() + ": verdicts without a batch");
  const Batch& batch = *verdicts.batch;
  const std::vector<int32_t>* rows = &verdicts.bad_rows;
  std::vector<int32_t> clean_rows;
  if (kind_ == SinkKind::kClean) {
    clean_rows.reserve(static_cast<size_t>(batch.num_rows) - std::min(verdicts.bad_rows.size(), size_t(batch.num_rows)));
    if (verdicts.bad != nullptr) {
      for (int64_t r = 0; r < batch.num_rows; ++r)
        if (!verdicts.bad[r]) clean_rows.push_back(static_cast<int32_t>(r));
    } else {
      size_t next_bad = 0;
      for (int64_t r = 0; r < batch.num_rows; ++r) {
        if (next_bad < verdicts.bad_rows.size() && verdicts.bad_rows[next_bad] == r) {
          ++next_bad;
          continue;
        }
        clean_rows.push_back(static_cast<int32_t>(r));
      }
    }
    rows = &clean_rows;
  }
  if (rows->empty()) return std::make_unique<EncodedRows>();
  ASSIGN_OR_RETURN(std::unique_ptr<EncodedRows> piece, EncodeRows(verdicts, *rows));
  piece->rows = static_cast<int64_t>(rows->size());
  return piece;
}

Status FileRowSink::Append(std::unique_ptr<EncodedRows> piece) {
  if (done_) return Status::Internal(file_->final_path() + ": write after commit or abort");
  if (piece == nullptr || piece->rows == 0) return Status::OK();
  rows_ += piece->rows;
  return AppendRows(std::move(piece));
}

Status FileRowSink::Write(const RowVerdicts& verdicts) {
  if (verdicts.batch == nullptr) return Status::Internal(file_->final_path() + ": verdicts without a batch");
  RETURN_IF_ERROR(Prepare(*verdicts.batch));
  ASSIGN_OR_RETURN(std::unique_ptr<EncodedRows> piece, Encode(verdicts));
  return Append(std::move(piece));
}

Result<OutputSummary> FileRowSink::Commit() {
  if (done_) return Status::Internal(file_->final_path() + ": commit after commit or abort");
  if (!started_) {
    started_ = true;
    Status begun = Begin(nullptr);
    if (!begun.ok()) {
      Abort();
      return begun;
    }
  }
  Status finished = Finish();
  if (!finished.ok()) {
    Abort();
    return finished;
  }
  done_ = true;
  ASSIGN_OR_RETURN(AtomicFile::Committed committed, file_->Commit());
  OutputSummary summary;
  summary.path = file_->final_path();
  summary.kind = kind_ == SinkKind::kClean ? "clean" : "quarantine";
  summary.rows = rows_;
  summary.bytes = committed.bytes;
  summary.sha256 = std::move(committed.sha256);
  summary.etag = std::move(committed.etag);
  summary.table_version = committed.table_version;
  return summary;
}

void FileRowSink::Abort() {
  StopWriting();
  done_ = true;
  if (file_) file_->Abort();
}

void AppendErrorsJson(const RowVerdicts& verdicts, size_t bad_index, std::string* out) {
  out->push_back('[');
  if (bad_index + 1 < verdicts.error_offsets.size()) {
    const uint32_t begin = verdicts.error_offsets[bad_index];
    const uint32_t end = verdicts.error_offsets[bad_index + 1];
    for (uint32_t e = begin; e < end && e < verdicts.errors.size(); ++e) {
      if (e != begin) out->push_back(',');
      out->append("{\"check\":");
      AppendJsonString(verdicts.errors[e].check, out);
      out->append(",\"message\":");
      AppendJsonString(verdicts.errors[e].message, out);
      out->push_back('}');
    }
  }
  out->push_back(']');
}

std::string_view MalformedRawText(const Batch& batch, int64_t row) {
  auto it = std::lower_bound(batch.malformed_records.begin(), batch.malformed_records.end(), row,
                             [](const MalformedRecord& record, int64_t r) { return record.row_in_batch < r; });
  if (it != batch.malformed_records.end() && it->row_in_batch == row) return it->raw;
  if (static_cast<size_t>(row) < batch.raw_records.size()) return batch.raw_records[row];
  return {};
}

namespace {

bool AllTextColumns(const Batch& batch, bool with_json_kinds) {
  if (batch.raw_records.size() != static_cast<size_t>(batch.num_rows)) return false;
  // A JSON lines input whose rules name no key has no columns, only raw lines.
  if (batch.columns.empty()) return with_json_kinds;
  for (const BatchColumn& column : batch.columns) {
    if (column.array) return false;
    if (column.text.json_kinds.empty() == with_json_kinds) return false;
  }
  return true;
}

}  // namespace

bool IsDelimitedTextBatch(const Batch& batch) { return AllTextColumns(batch, /*with_json_kinds=*/false); }
bool IsJsonLinesBatch(const Batch& batch) { return AllTextColumns(batch, /*with_json_kinds=*/true); }

}  // namespace griffin
