// JSON lines inputs: each non-blank line is one row and must hold one JSON
// object. DecodeJsonl extracts the keys ReadOptions::json_columns names into
// TextColumns (with JsonKind per value); other keys live on only in
// raw_records. Decoding runs on any thread (simdjson parsers are thread_local).
//
// Values: a missing key, null, or a string spelled as one of the null_values
// -> is_null; a string -> its unescaped text
// (kString); a number -> its literal token (kNumber); true/false -> "true" /
// "false" (kBool); an object or array -> its raw JSON text (kOther). When a
// key repeats in an object the last value wins.
// Malformed rows (values all null) have one of the reasons:
//   "invalid UTF-8 at byte N of the record"  (N counts from 1)
//   "invalid JSON: <simdjson's message>"
//   "line is not a JSON object"
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "io/batch.h"
#include "io/byte_stream.h"
#include "io/input_source.h"
#include "io/null_matcher.h"
#include "io/text_chunker.h"

namespace griffin {

// Counts lines ('\n'-terminated records).
class LineScanner : public RecordScanner {
 public:
  size_t Scan(const char* data, size_t size, size_t begin, size_t stop_at, int64_t max_records,
              int64_t* num_records) override;
};

struct JsonlLayout {
  std::string name;
  std::vector<std::string> columns;  // ReadOptions::json_columns
  bool all_keys = false;             // ReadOptions::json_all_keys
  // ReadOptions::null_values: a JSON string spelled as one of them is null
  // (rules-v1, amended 2026-12-03: null_values hold for every input's strings).
  // Numbers, booleans, objects and arrays are never matched.
  NullMatcher nulls{std::vector<std::string>{}};
  int input_index = 0;
};

// `span` must be followed by kTextPadding readable bytes (TextChunker does so).
std::shared_ptr<Batch> DecodeJsonl(const JsonlLayout& layout, const TextSpan& span);

// A source over one JSON lines stream; as with CSV, every input gives at least
// one batch (zero rows for an empty input).
std::unique_ptr<InputSource> MakeJsonlSource(std::unique_ptr<ByteStream> in, std::string name,
                                             const ReadOptions& options, int input_index,
                                             int64_t total_bytes);

}  // namespace griffin
