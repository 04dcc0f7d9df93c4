// Internal to sinks/: the kept rows of a batch as an Arrow record batch of the
// output schema (for Parquet and Arrow IPC outputs). No arrow::compute: typed
// columns are copied by slicing runs of kept rows and concatenating them, so
// the result owns compact memory and the input batch can be freed.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <arrow/record_batch.h>
#include <arrow/type.h>

#include "sinks/row_sink.h"
#include "util/status.h"

namespace griffin {

struct OutputColumns {
  bool quarantine = false;                 // adds _griffin_row, _griffin_errors, _griffin_raw
  std::optional<int64_t> version_tag;      // adds _griffin_version
};

// The output schema: the columns of `first` (text columns as utf8, typed ones
// with their Arrow type; none when `first` is null), then the added columns:
// _griffin_row int64, _griffin_errors list<element: struct<check: utf8, message: utf8>>,
// _griffin_raw utf8, _griffin_version int64.
std::shared_ptr<arrow::Schema> OutputSchema(const Batch* first, const OutputColumns& added);

// Rows `rows` of verdicts.batch (for quarantine: rows == verdicts.bad_rows) as
// a record batch of `schema`. A typed column whose type differs from the
// schema's is an InputError naming `input_name`; typed values bound for a
// utf8 column (a text input came first) are rendered as text.
Result<std::shared_ptr<arrow::RecordBatch>> BuildOutputBatch(const std::shared_ptr<arrow::Schema>& schema,
                                                             const OutputColumns& added,
                                                             const RowVerdicts& verdicts,
                                                             const std::vector<int32_t>& rows,
                                                             const std::string& input_name);

}  // namespace griffin
