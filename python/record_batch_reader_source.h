// An InputSource over an arrow::RecordBatchReader: what the Python package
// validates when it is given in-memory Arrow data (a pyarrow Table, a
// RecordBatchReader, anything with __arrow_c_stream__). Each record batch,
// sliced to at most `batch_rows` rows, becomes a Batch that views the arrays
// in place (BatchFromRecordBatch): no buffer is copied.
//
// NextChunk() pulls from the reader on the calling thread; a reader backed by
// Python code takes the GIL itself. `name` prefixes error messages.
#pragma once

#include <memory>
#include <string>

#include <arrow/record_batch.h>

#include "io/input_source.h"

namespace griffin {

std::unique_ptr<InputSource> MakeRecordBatchReaderSource(std::shared_ptr<arrow::RecordBatchReader> reader,
                                                         std::string name, int64_t batch_rows);

}  // namespace griffin
