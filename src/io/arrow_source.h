// Typed inputs: Parquet files and Arrow IPC (the file format, which .feather
// v2 is, and the stream format). Each Arrow RecordBatch (sliced to at most
// ReadOptions::batch_rows rows) becomes a Batch whose columns hold the arrays
// themselves; Batch::arrow_keepalive holds the record batch, and
// Batch::string_nulls the ReadOptions::null_values that string values spell
// null with (rules-v1: null_values hold for string columns of every input). Reading is
// sequential, a record batch at a time, on the reading thread; Chunk::Decode
// checks the batch (io/arrow_check.h: corrupt data is an InputError, rows
// with invalid UTF-8 are malformed) and hands it over.
#pragma once

#include <memory>
#include <string>

#include <arrow/buffer.h>
#include <arrow/io/interfaces.h>
#include <arrow/record_batch.h>

#include "io/batch.h"
#include "io/input_source.h"

namespace griffin {

// `path` may be "-": Parquet from standard input is read into memory first
// (it needs random access); an IPC stream is read as it comes.
// A file that is not Parquet / Arrow IPC, or is corrupt, gives an InputError
// "PATH: ..." (now or from NextChunk). Every input gives at least one batch
// (zero rows, with the schema's columns, for an empty input).
Result<std::unique_ptr<InputSource>> OpenParquetSource(const std::string& path,
                                                       const ReadOptions& options, int input_index);
Result<std::unique_ptr<InputSource>> OpenArrowIpcSource(const std::string& path,
                                                        const ReadOptions& options, int input_index);

// A Parquet or Arrow IPC file behind an Arrow RandomAccessFile that is remote
// (an object in a store): Parquet row groups are pre-buffered (coalesced
// reads issued ahead of decoding; memory about one row group). `name`
// stands for the input in messages.
Result<std::unique_ptr<InputSource>> OpenParquetFile(std::shared_ptr<arrow::io::RandomAccessFile> file,
                                                     const std::string& name, const ReadOptions& options,
                                                     int input_index);
Result<std::unique_ptr<InputSource>> OpenArrowIpcFile(std::shared_ptr<arrow::io::RandomAccessFile> file,
                                                      const std::string& name, const ReadOptions& options,
                                                      int input_index);

// Arrow IPC bytes already in memory (the file or stream format, told by the
// magic bytes), read in place; `name` stands for them in messages.
Result<std::unique_ptr<InputSource>> OpenArrowIpcBuffer(std::shared_ptr<arrow::Buffer> bytes, const std::string& name,
                                                        const ReadOptions& options, int input_index = 0);

// In-memory Arrow data (a pyarrow Table, an Arrow C stream): each record batch,
// sliced to at most options.batch_rows rows, is viewed in place (no buffer is
// copied). NextChunk() pulls from `reader` on the calling thread. `name`
// stands for the input in messages; progress counts the buffers' bytes.
std::unique_ptr<InputSource> OpenRecordBatchReaderSource(std::shared_ptr<arrow::RecordBatchReader> reader,
                                                         const std::string& name, const ReadOptions& options,
                                                         int input_index = 0);

// A Batch viewing `record_batch` (no copy), whose string columns take
// `string_nulls` as their null spellings (Batch::string_nulls).
std::shared_ptr<Batch> BatchFromRecordBatch(std::shared_ptr<arrow::RecordBatch> record_batch,
                                            int input_index,
                                            std::shared_ptr<const NullMatcher> string_nulls = nullptr);

}  // namespace griffin
