// An output that appears whole or not at all, on a system other than the local
// filesystem: an object in a store written by a multipart or resumable upload.
// AtomicFile (sinks/atomic_file.h) writes through one when its final path is a
// URI whose adapter can write (io/source_registry.h).
//
// Contract: the object is visible to readers only after Commit() returns OK;
// Abort(), or destruction without Commit(), leaves nothing (an upload that a
// killed process never completes is never an object either).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "io/parquet_codec.h"
#include "util/status.h"

namespace griffin {

// What an adapter's output takes from the run besides its URI. Adapters that do
// not write Parquet themselves (objects, SQL tables) ignore parquet_codec; those
// that spool nothing (objects) ignore temp_dir.
struct OutputObjectOptions {
  ParquetCodec parquet_codec = ParquetCodec::kSnappy;
  // Where a table output's spool goes (--tmp-dir); empty: $TMPDIR, else /tmp.
  std::string temp_dir;
};

struct CommittedObject {
  int64_t size = -1;
  std::string etag;  // the store's identity of this version (S3 ETag, GCS generation)
  int64_t table_version = -1;  // a table format's committed version (Delta); -1 otherwise
};

class OutputObject {
 public:
  virtual ~OutputObject() = default;
  // Errors are InputErrors naming the URI; after one, only Abort() is useful.
  virtual Status Write(std::string_view bytes) = 0;
  virtual Result<CommittedObject> Commit() = 0;
  // Idempotent; a no-op after Commit.
  virtual void Abort() = 0;
};

}  // namespace griffin
