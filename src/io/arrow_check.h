// Checking Arrow data the engine did not build itself (Arrow IPC files and
// streams, batches decoded from Parquet, batches from Python's C stream, HTTP
// bodies and Flight streams) before the engine reads its buffers in place.
// Every Arrow input reaches the engine through io/arrow_source.cc, which runs
// these on each batch (on a worker thread, in Chunk::Decode).
//
//   ASSIGN_OR_RETURN(record_batch, CheckArrowBatch(std::move(record_batch), "data.arrow"));
//   std::shared_ptr<Batch> batch = BatchFromRecordBatch(record_batch, input_index);
//   MarkInvalidUtf8Rows(batch.get());
//
// Cost: one pass over the offsets, the validity bitmaps and (for strings)
// the character data; see docs/semantics.md for the figure.
#pragma once

#include <memory>
#include <string>

#include <arrow/record_batch.h>

#include "io/batch.h"
#include "util/status.h"

namespace griffin {

// `record_batch` when its structure is sound (Arrow's full validation: every
// offset, length, dictionary index and child in bounds), with misaligned
// buffers copied to aligned ones. Corrupt data gives an InputError
// "NAME: invalid Arrow data in column "c": ...", so no later read leaves the
// buffers. String data is checked as bytes here: invalid UTF-8 in a top-level
// string (or dictionary-of-string) column is data, flagged per row by
// MarkInvalidUtf8Rows; inside nested types (lists, structs) it is an error.
Result<std::shared_ptr<arrow::RecordBatch>> CheckArrowBatch(std::shared_ptr<arrow::RecordBatch> record_batch,
                                                            const std::string& name);

// Marks each row of `batch` (a typed batch from BatchFromRecordBatch, after
// CheckArrowBatch) holding a value that is not valid UTF-8 in a utf8,
// large_utf8, string_view or dictionary-of-string column as malformed, with
// the reason `invalid UTF-8 at byte N of column "c"` (N from 1) and the
// offending value's bytes as its raw text, as the text readers flag such
// records. The row's values stay as they are (a quarantine keeps them).
void MarkInvalidUtf8Rows(Batch* batch);

}  // namespace griffin
