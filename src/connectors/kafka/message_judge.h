// Judges a micro-batch of Kafka message values with a compiled rule set, one
// message per record, through the engine's text paths: the same parser, plan
// and messages as `griffin validate` on a file holding the same records.
//
//   std::vector<std::string_view> values = ...;       // message payloads, in order
//   ASSIGN_OR_RETURN(JudgedBatch judged, JudgeMessages(*validator, values, options));
//   judged.verdicts[i].errors.empty()  // message i is clean
//
// The format is the rule file's `source.format`: `csv` or `tsv` read each
// message as one record of that format (the header, when `source.header` is
// true as by default, is the rule file's columns in file order; one trailing
// line break is dropped); anything else reads each message as one JSON object
// (the JSON-lines path).
//
// A file cannot hold some messages as one record each, so these are judged
// malformed here without reaching the engine:
//   - an empty or all-whitespace message: "empty message";
//   - JSON: a raw line break inside a JSON string: "invalid JSON: a raw line
//     break inside a string" (simdjson rejects raw control characters in
//     strings); line breaks between JSON tokens are whitespace;
//   - CSV: a line break outside quotes: "more than one record in the message".
// `unique` and table checks see one micro-batch (docs/semantics.md, "griffin stream").
// `options.row_offset` and `options.partial_state` number the batch's rows and
// keep its state for a window of batches (stream_window.h); verdicts stay by
// message index.
#pragma once

#include <string>
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

// `scratch` (optional): the buffer the batch's text is built in, kept by the
// caller so that a stream reuses one allocation for every batch.
Result<JudgedBatch> JudgeMessages(const Validator& validator, const std::vector<std::string_view>& values,
                                  const ValidationOptions& options, std::string* scratch = nullptr);

}  // namespace griffin::kafka
