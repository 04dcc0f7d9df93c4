// Internal to sinks/: what every file format's RowSink shares. The base class
// fixes the column list from the first batch (and rejects later batches whose
// column names differ), picks the rows the sink keeps, counts them, and owns
// the AtomicFile that Commit() renames into place.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "io/batch.h"
#include "sinks/atomic_file.h"
#include "sinks/row_sink.h"

namespace griffin {

class FileRowSink : public RowSink {
 public:
  FileRowSink(std::unique_ptr<AtomicFile> file, SinkKind kind, SinkOptions options);
  ~FileRowSink() override;

  Status Write(const RowVerdicts& verdicts) final;
  Status Prepare(const Batch& batch) final;
  Result<std::unique_ptr<EncodedRows>> Encode(const RowVerdicts& verdicts) const final;
  Status Append(std::unique_ptr<EncodedRows> piece) final;
  Result<OutputSummary> Commit() final;
  void Abort() final;

 protected:
  // Called once before any row: `first` is the batch that fixed the columns,
  // or nullptr when the run had no batch at all (then there are no input
  // columns, only the added ones).
  virtual Status Begin(const Batch* first) = 0;
  // Encodes the kept rows `rows` (not empty) of verdicts.batch, in order. For
  // a quarantine sink rows == verdicts.bad_rows, so the errors of rows[i] are
  // entry i's. Runs on any thread: reads only what Begin set.
  virtual Result<std::unique_ptr<EncodedRows>> EncodeRows(const RowVerdicts& verdicts,
                                                          const std::vector<int32_t>& rows) const = 0;
  // Writes an encoded piece (rows > 0), in input order.
  virtual Status AppendRows(std::unique_ptr<EncodedRows> piece) = 0;
  // Writes whatever the format needs at the end (footers, pending rows).
  virtual Status Finish() = 0;
  // Called by Abort() first: a sink writing on a thread of its own stops it
  // (a derived destructor must do so itself).
  virtual void StopWriting() {}

  SinkKind kind() const { return kind_; }
  bool quarantine() const { return kind_ == SinkKind::kQuarantine; }
  // A clean sink with a version tag adds _griffin_version.
  bool tagged() const { return kind_ == SinkKind::kClean && options_.version_tag.has_value(); }
  const SinkOptions& options() const { return options_; }
  AtomicFile* file() { return file_.get(); }
  const std::vector<std::string>& column_names() const { return column_names_; }
  // The input's path from options().input_names, else "input N" (1-based).
  std::string InputName(int input_index) const;

 private:
  Status CheckColumns(const Batch& batch) const;

  std::unique_ptr<AtomicFile> file_;
  SinkKind kind_;
  SinkOptions options_;
  bool started_ = false;
  bool done_ = false;
  int first_input_ = 0;
  std::vector<std::string> column_names_;
  int64_t rows_ = 0;
};

// Names of the added columns.
inline constexpr std::string_view kRowColumn = "_griffin_row";
inline constexpr std::string_view kErrorsColumn = "_griffin_errors";
inline constexpr std::string_view kRawColumn = "_griffin_raw";
inline constexpr std::string_view kVersionColumn = "_griffin_version";

// Encoded text (CSV, JSON lines): appended as is.
struct EncodedText : EncodedRows {
  std::string text;
};

// Appends the errors of verdicts.bad_rows[bad_index] as a JSON array:
// [{"check":"amount.min","message":"..."}].
void AppendErrorsJson(const RowVerdicts& verdicts, size_t bad_index, std::string* out);

// The raw text of malformed row `row` (its MalformedRecord, else its raw
// record, else empty).
std::string_view MalformedRawText(const Batch& batch, int64_t row);

// A CSV/TSV batch: text columns without JSON kinds, one raw record per row.
bool IsDelimitedTextBatch(const Batch& batch);
// A JSON lines batch: text columns with JSON kinds, one raw record per row.
bool IsJsonLinesBatch(const Batch& batch);

// Factories for the formats (the file is already open).
std::unique_ptr<RowSink> MakeCsvSink(std::unique_ptr<AtomicFile> file, SinkKind kind, const SinkOptions& options);
std::unique_ptr<RowSink> MakeJsonLinesSink(std::unique_ptr<AtomicFile> file, SinkKind kind,
                                           const SinkOptions& options);
enum class ArrowFileFormat { kParquet, kIpc };
std::unique_ptr<RowSink> MakeArrowSink(std::unique_ptr<AtomicFile> file, SinkKind kind, const SinkOptions& options,
                                       ArrowFileFormat format);

}  // namespace griffin
