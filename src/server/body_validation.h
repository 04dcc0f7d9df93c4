// Validating a request body: CSV, TSV, JSON lines or Arrow IPC, chosen by
// its Content-Type, with a dataset's compiled rules. Arrow data from a
// client is checked in full (offsets, lengths) before the engine reads it,
// as every Arrow input is (io/arrow_check.h), so hostile bytes give an
// error, never an out-of-bounds read.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <arrow/record_batch.h>

#include "api/validator.h"

namespace griffin::server {

enum class BodyFormat { kCsv, kTsv, kJsonl, kArrow };

// text/csv, text/tab-separated-values, application/x-ndjson (or
// application/jsonl, application/jsonlines, application/x-jsonlines),
// application/vnd.apache.arrow.stream (or .file); parameters such as
// "; charset=utf-8" are ignored, case does not matter. nullopt otherwise.
std::optional<BodyFormat> BodyFormatOf(std::string_view content_type);

// The Content-Types BodyFormatOf reads, for error messages.
const char* AcceptedContentTypes();

// Validates `body` (it must outlive the call; it is read in place). Arrow
// bodies may be the IPC stream or file format. Errors: InputError for an
// unreadable body ("<body>:1: duplicate column name ..."), RuleError when
// the rules cannot bind to the body's columns. An Arrow body's compressed
// buffers (LZ4, ZSTD) may hold at most `max_decoded_bytes` decoded at once;
// past that the call fails, with *decoded_too_large set if given (413 at the edge).
Result<ValidationResult> ValidateBody(const Validator& validator, std::string_view body, BodyFormat format,
                                      const ValidationOptions& options,
                                      int64_t max_decoded_bytes = std::numeric_limits<int64_t>::max(),
                                      bool* decoded_too_large = nullptr);

// The name a body has in reports and messages.
inline constexpr const char* kBodyName = "<body>";

}  // namespace griffin::server
