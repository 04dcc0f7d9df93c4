// Clean and quarantine outputs (--clean, --quarantine): every input row lands
// in exactly one of them, in input order, whatever the thread count.
//
// The merger calls Write() once per batch, strictly in input order, with the
// verdict of every row. A sink writes to a temporary file beside its final
// path and renames it only in Commit(), after flushing and fsync, so a run
// that is killed or fails leaves nothing half-written under the final name.
// Abort() (or destruction without Commit) removes the temporary file.
//
//   ASSIGN_OR_RETURN(auto sink, OpenRowSink("bad.parquet", SinkKind::kQuarantine, options));
//   RETURN_IF_ERROR(sink->Write(verdicts));   // per batch
//   ASSIGN_OR_RETURN(OutputSummary done, sink->Commit());
//
// Formats by extension: .csv .tsv (.gz/.zst not supported for outputs), .jsonl
// .ndjson, .parquet, .arrow/.feather/.ipc (Arrow IPC file format).
//
// Columns: the input's columns, in input order (the first batch fixes them; a
// later input whose column names differ is an InputError). Values keep their
// original form: text inputs give string columns holding the text as read
// (CSV rows that are not malformed are copied byte for byte when the output is
// CSV of the same delimiter); typed inputs keep their Arrow types.
//   quarantine adds: _griffin_row (int64, the 0-based input row),
//                    _griffin_errors (the violated error checks with messages:
//                      CSV: JSON text [{"check":..,"message":..}], JSONL: that
//                      array, Parquet/Arrow: list<struct<check, message>>),
//                    _griffin_raw (the raw record text of a malformed row, else null;
//                      a malformed row has null in every input column)
//   clean adds, with a version tag: _griffin_version (int64).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/batch.h"
#include "io/parquet_codec.h"
#include "io/typed_column.h"
#include "util/status.h"

namespace griffin {

enum class SinkKind { kClean, kQuarantine };

struct RowError {
  std::string check;    // the check's name, e.g. "amount.min", or "malformed"
  std::string message;
};

// The verdicts of one batch.
struct RowVerdicts {
  const Batch* batch = nullptr;
  // The batch's owner, when the producer has one (the merger): a consumer
  // that finishes the batch later (OutputPipeline) keeps it alive with it.
  std::shared_ptr<const Batch> batch_owner;
  int64_t base_row = 0;                 // input row of batch row 0
  const uint8_t* bad = nullptr;         // per batch row: 1 = quarantine, 0 = clean
  // The batch's columns converted to their declared types, per plan column
  // slot (Plan::columns()); null when the producer has none (sink tests).
  const std::vector<TypedColumn>* columns = nullptr;
  // For each bad row, in row order, its error-severity violations in check
  // order: rows of bad rows are listed in `bad_rows`, and errors of
  // bad_rows[i] are errors[error_offsets[i] .. error_offsets[i + 1]).
  std::vector<int32_t> bad_rows;
  std::vector<uint32_t> error_offsets;  // size bad_rows.size() + 1
  std::vector<RowError> errors;
};

// Whether `path` names an output OpenRowSink would write as Parquet.
bool IsParquetOutput(const std::string& path);
// Whether --parquet-compression reaches the output `path`: IsParquetOutput, or a
// table whose adapter writes Parquet data files (Delta).
bool WritesParquetPages(const std::string& path);

struct SinkOptions {
  std::optional<int64_t> version_tag;   // clean outputs: the value of _griffin_version
  char csv_delimiter = ',';             // for CSV outputs (and the byte-copy fast path)
  char input_delimiter = ',';           // the CSV inputs' delimiter (fast path only when equal)
  char input_quote = '"';               // the CSV inputs' quote (fast path only when '"')
  // Optional, per input index (Batch::input_index): that input's delimiter
  // (overrides input_delimiter, so a .tsv read beside a .csv is never copied
  // raw into a .csv) and its path (named in the different-columns error;
  // without it the error says "input N", 1-based).
  std::vector<char> input_delimiters;
  std::vector<std::string> input_names;
  // Whether the output's bytes are hashed for lineage (OutputSummary::sha256,
  // empty without). Runs that record no lineage skip the cost.
  bool hash_output = true;
  ParquetCodec parquet_codec = ParquetCodec::kSnappy;  // Parquet outputs only
  std::string temp_dir;  // a table output's spool (OutputObjectOptions::temp_dir)
};

// What a committed output holds, for lineage.
struct OutputSummary {
  std::string path;
  std::string kind;       // "clean" | "quarantine"
  int64_t rows = 0;
  int64_t bytes = 0;
  std::string sha256;     // hex sha256 of the file's bytes; empty when SinkOptions::hash_output was off
  std::string etag;       // an object's ETag (S3) or generation (GCS); empty for files
  int64_t table_version = -1;  // a table output's committed version (Delta); -1 otherwise
};

// One batch's output, encoded (RowSink::Encode) and waiting to be appended.
struct EncodedRows {
  virtual ~EncodedRows() = default;
  int64_t rows = 0;  // the rows it holds
};

class RowSink {
 public:
  virtual ~RowSink() = default;
  // Prepare + Encode + Append, on the calling thread.
  virtual Status Write(const RowVerdicts& verdicts) = 0;
  // Writing in three steps, so that encoding can leave the merger thread
  // (sinks/output_pipeline.h): Prepare(batch) and Append(piece) in input
  // order on one thread; Encode(verdicts) of a prepared batch on any thread,
  // concurrently with other Encodes and with Prepare/Append. Encode errors
  // (a column whose type changed between inputs) are the piece's: they are
  // reported when it would be appended, so the first error in input order wins.
  virtual Status Prepare(const Batch& batch) = 0;
  virtual Result<std::unique_ptr<EncodedRows>> Encode(const RowVerdicts& verdicts) const = 0;
  virtual Status Append(std::unique_ptr<EncodedRows> piece) = 0;
  // Finishes the file, fsyncs it, renames it to its final path.
  virtual Result<OutputSummary> Commit() = 0;
  // Removes the temporary file; the final path is untouched. Idempotent.
  virtual void Abort() = 0;
};

// Errors: an unsupported extension (UsageError), a directory that cannot be
// written (InputError naming the path).
Result<std::unique_ptr<RowSink>> OpenRowSink(const std::string& path, SinkKind kind, const SinkOptions& options);

}  // namespace griffin
