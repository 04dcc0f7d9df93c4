// Judges a micro-batch of Kafka message values with a compiled rule set, one
// message per record, through the engine's JSON-lines path (the same parser,
// plan and messages as `griffin validate` on a .jsonl file holding the same
// records, one per line).
//
//   std::vector<std::string_view> values = ...;       // message payloads, in order
//   ASSIGN_OR_RETURN(JudgedBatch judged, JudgeJsonMessages(*validator, values, options));
//   judged.verdicts[i].errors.empty()  // message i is clean
//
// A JSON-lines file cannot hold some messages as one line each, so these are
// judged malformed here without reaching the engine (they could not be
// written to such a file at all):
//   - an empty or all-whitespace message: "empty message";
//   - a raw line break inside a JSON string: "invalid JSON: a raw line break
//     inside a string" (simdjson rejects raw control characters in strings).
// Line breaks between JSON tokens are whitespace and become spaces. `unique`
// and table checks see one micro-batch (docs/semantics.md, "griffin stream").
#pragma once

#include <string_view>
#include <vector>

#include "api/validator.h"
#include "report/report.h"
#include "sinks/row_sink.h"
#include "util/status.h"

namespace griffin::kafka {

struct MessageVerdict {
  // The error-severity violations, in check order (check "malformed" for a
  // message that is not a JSON object); empty: the message is clean. `warn`
  // checks never appear here.
  std::vector<RowError> errors;
};

struct JudgedBatch {
  std::vector<MessageVerdict> verdicts;  // one per message, in order
  Report report;                         // the engine's report of the batch
};

Result<JudgedBatch> JudgeJsonMessages(const Validator& validator, const std::vector<std::string_view>& values,
                                      const ValidationOptions& options);

}  // namespace griffin::kafka
