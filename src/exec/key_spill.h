// Hash partitions of records written to temporary files: what a `unique` or
// `distinct_count` state writes when it passes the run's memory limit
// (--memory-limit), to be finished with one more pass per partition
// (unique_spill.h, ColumnMetrics).
//
// A record goes to the partition of its key's hash (the top kPartitionBits
// bits), so equal keys meet in one partition, in the order they were
// appended. The files have no name on disk: each is unlinked as soon as it is
// open (O_TMPFILE where the file system has it), so nothing is left under the
// directory however the process ends (exit, error, kill -9). Each partition
// buffers kBufferBytes before it writes. Errors are sticky: Append never
// fails, status() says whether every byte was written.
//
//   ASSIGN_OR_RETURN(auto spill, KeySpill::Open("/tmp"));
//   spill->Append(hash, record);  ...
//   RETURN_IF_ERROR(spill->status());
//   for (int p = 0; p < KeySpill::kPartitions; ++p) { ASSIGN_OR_RETURN(std::string bytes, spill->Read(p)); ... }
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"

namespace griffin {

class KeySpill {
 public:
  static constexpr int kPartitionBits = 6;
  static constexpr int kPartitions = 1 << kPartitionBits;
  static constexpr size_t kBufferBytes = size_t{1} << 16;

  // Opens kPartitions unnamed files under `dir`. An InputError names the
  // directory when one cannot be created.
  static Result<std::unique_ptr<KeySpill>> Open(const std::string& dir);
  ~KeySpill();
  KeySpill(const KeySpill&) = delete;
  KeySpill& operator=(const KeySpill&) = delete;

  static int PartitionOf(uint64_t hash) { return static_cast<int>(hash >> (64 - kPartitionBits)); }

  // Appends `record` to the partition of `hash`.
  void Append(uint64_t hash, std::string_view record);
  // OK while every append was written.
  const Status& status() const { return status_; }
  // Bytes appended so far (written or buffered).
  int64_t bytes() const { return bytes_; }

  // Partition p's records, as appended (its buffer flushed first).
  Result<std::string> Read(int partition);
  // Gives partition p's disk space back (after Read).
  void Drop(int partition);

 private:
  explicit KeySpill(std::string dir) : dir_(std::move(dir)) {}
  void Flush(int partition);
  void Fail(const std::string& what, int error);

  std::string dir_;
  std::vector<int> fds_;
  std::vector<std::string> buffers_;
  std::vector<int64_t> written_;  // per partition: bytes in its file
  int64_t bytes_ = 0;
  Status status_;
};

}  // namespace griffin
