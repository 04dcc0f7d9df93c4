// Reading inputs as a stream of batches, split so that the expensive part
// (decoding) runs on worker threads:
//
//   InputSource::NextChunk()  one thread, in input order: reads raw bytes or an
//                             Arrow record batch; cheap (I/O, decompression,
//                             finding record boundaries).
//   Chunk::Decode()           any thread: parses the chunk into a Batch.
//
// Memory: a chunk holds at most ~ReadOptions::chunk_bytes of input (or one
// record batch); the engine keeps a bounded number in flight.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/batch.h"
#include "io/byte_stream.h"
#include "util/status.h"

namespace griffin {

// kJson: a document holding one JSON array of objects (json_array_stream.h).
enum class InputFormat { kCsv, kTsv, kJsonl, kJson, kParquet, kArrow };
const char* InputFormatName(InputFormat f);

// The most columns an input may have (a CSV header, a headerless CSV's first
// record, a Parquet or Arrow schema): far past real tables, and small enough
// that per-column state (names, per-batch value vectors, output writers) stays
// small. More is an InputError naming the count, not gigabytes of bookkeeping.
inline constexpr int64_t kMaxColumns = 100000;

struct ReadOptions {
  std::optional<InputFormat> format;      // overrides detection by extension
  std::optional<char> delimiter;          // overrides the format's default
  bool header = true;
  char quote = '"';
  std::vector<std::string> null_values = {""};
  int64_t batch_rows = 65536;             // at most this many rows per batch
  int64_t chunk_bytes = 4 << 20;          // text inputs: target bytes per chunk
  // JSON lines: the keys to extract (the columns the rules name). Other keys
  // are kept only in the raw record text. Sources that push columns down
  // (io/source_registry.h) read only these when the list is not empty.
  std::vector<std::string> json_columns;
  // False: sources read every column even when they could read only
  // json_columns (front ends writing clean/quarantine rows keep them whole).
  bool project_columns = true;
  // CSV/TSV: decode and keep only the columns json_columns names (when it is
  // not empty); the others are still scanned, so malformed records are found
  // as before, but batches hold only the named columns. Only for runs whose
  // batches feed no row output (--clean, --quarantine, on_rows consumers).
  bool project_text_columns = false;
  // Sources that push a filter down: a boolean SQL expression over the
  // source's columns (`source.where`, --where); only rows it matches are read.
  // Empty: every row. Files cannot filter: a UsageError.
  std::string where;
  // Sources that run a query (--query): read its result instead of a table.
  std::string query;
  // Sources that read increments (`source.incremental`, io/source_registry.h):
  // the column whose values order the rows. With increment_bounded, only rows
  // with increment_after < column <= increment_through are read (watermarks
  // as SourceWatermark::value; an empty increment_after: no lower bound, and
  // rows whose column is NULL are read too; an empty increment_through: no
  // row is past increment_after). Not bounded: every row (no watermark known,
  // as with --no-store). Files cannot read increments: a UsageError.
  std::string incremental_column;
  bool increment_bounded = false;
  std::string increment_after, increment_through;
  // JSON: every top-level key becomes a column too, in the order keys first
  // appear in each batch (griffin profile, which has no rules to name them).
  // Batches may then differ in their columns.
  bool json_all_keys = false;
};

class Chunk {
 public:
  virtual ~Chunk() = default;
  // Decodes into a Batch. Errors here are input errors (exit 3) such as a
  // corrupt Parquet page; malformed text records are NOT errors.
  virtual Result<std::shared_ptr<Batch>> Decode() = 0;
};

class InputSource {
 public:
  virtual ~InputSource() = default;
  // The next chunk in input order, or nullptr at the end of all inputs.
  virtual Result<std::unique_ptr<Chunk>> NextChunk() = 0;
  // Bytes consumed so far (compressed bytes for compressed inputs); for progress.
  virtual int64_t bytes_read() const = 0;
  // Total input bytes when known (files), else -1 (stdin).
  virtual int64_t total_bytes() const = 0;
  // True for text inputs (CSV, TSV, JSON lines), whose unreadable records are
  // malformed rows: their report carries the `malformed` check (rules-v1).
  // A chain of inputs is text when any input opened so far is.
  virtual bool is_text() const { return false; }
};

// Opens one input: a file path or file:// URI, "-" for standard input (CSV
// unless options.format says otherwise), or a URI of another scheme, which
// the adapter registry opens (io/source_registry.h). Format from options.format or the
// extension (.csv .tsv .jsonl .ndjson .json .parquet .arrow .feather .ipc,
// with optional .gz/.zst for text formats). `input_index` is stamped on batches.
Result<std::unique_ptr<InputSource>> OpenInput(const std::string& path, const ReadOptions& options,
                                               int input_index);

// A text input (CSV, TSV, JSON lines or a JSON array) read from `stream`, an input that is
// already open or in memory (a request body: MakeMemoryStream). `name` names
// it in messages and `total_bytes` is its size when known (-1 otherwise).
// Parquet and Arrow are not text: a UsageError.
Result<std::unique_ptr<InputSource>> OpenTextStream(std::unique_ptr<ByteStream> stream, const std::string& name,
                                                    InputFormat format, const ReadOptions& options,
                                                    int input_index = 0, int64_t total_bytes = -1);

// Expands the command line inputs: directories become their supported files
// (sorted by name, not recursive into hidden entries), "-" and URIs of
// registered adapters stay (file:// URIs become their paths). Errors for
// missing paths name the path (exit 3).
Result<std::vector<std::string>> ExpandInputs(const std::vector<std::string>& paths);

// Chains several inputs into one source, in order.
Result<std::unique_ptr<InputSource>> OpenInputs(const std::vector<std::string>& paths,
                                                const ReadOptions& options);

}  // namespace griffin
