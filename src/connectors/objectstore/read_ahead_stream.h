// A ByteStream over a remote file that reads ahead: up to `depth` ranged
// reads of `block_bytes` each are in flight on Arrow's I/O threads while the
// caller consumes the current block, so parsing is not starved by a store's
// latency (and several requests run at once on a high-latency link).
// Memory is bounded by depth x block_bytes.
//
//   auto in = MakeReadAheadStream(file, "s3://b/x.csv", size, 8 << 20, 4);
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <arrow/io/interfaces.h>

#include "io/byte_stream.h"

namespace griffin {

// `size` is the file's length (reads stop there). Errors name `name`.
std::unique_ptr<ByteStream> MakeReadAheadStream(std::shared_ptr<arrow::io::RandomAccessFile> file,
                                                std::string name, int64_t size, int64_t block_bytes,
                                                int depth);

}  // namespace griffin
