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
//   // or, at most about max_bytes in memory at a time however much spilled:
//   RETURN_IF_ERROR(spill->VisitBounded(max_bytes, length_of, [&](std::string_view bytes) { ...; return Status::OK(); }));
#pragma once

#include <cstdint>
#include <functional>
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
  static Result<std::unique_ptr<KeySpill>> Open(const std::string& dir) { return Open(dir, 0); }
  // The same at split `level` (0..kMaxLevel): partitions by the hash's bits
  // below the top 6 * level (what VisitBounded uses to split a partition).
  static Result<std::unique_ptr<KeySpill>> Open(const std::string& dir, int level);
  static constexpr int kMaxLevel = 64 / kPartitionBits - 1;
  ~KeySpill();
  KeySpill(const KeySpill&) = delete;
  KeySpill& operator=(const KeySpill&) = delete;

  static int PartitionOf(uint64_t hash) { return PartitionOf(hash, 0); }
  static int PartitionOf(uint64_t hash, int level) {
    return static_cast<int>((hash << (kPartitionBits * level)) >> (64 - kPartitionBits));
  }

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
  // Bytes appended to partition p so far.
  int64_t partition_bytes(int partition) const { return written_[partition] + static_cast<int64_t>(buffers_[partition].size()); }

  // The size of the record at `at` (every record starts with its 8-byte
  // hash); `available` bytes are readable there. 0: more bytes are needed.
  using RecordLength = std::function<size_t(const char* at, size_t available)>;
  // Calls visit(bytes) with every partition's records in append order, one
  // partition at a time, and gives each one's space back after its call. A
  // partition of more than `max_bytes` is first split (streamed, record by
  // record, in order) into kPartitions partitions by the next bits of the
  // hash, recursively up to kMaxLevel, so that visit holds about `max_bytes`
  // at a time however much was spilled; equal hashes always stay together.
  // Errors: reading or writing the files, and visit's.
  Status VisitBounded(int64_t max_bytes, const RecordLength& length_of,
                      const std::function<Status(std::string_view bytes)>& visit);

 private:
  explicit KeySpill(std::string dir, int level) : dir_(std::move(dir)), level_(level) {}
  void Flush(int partition);
  // Streams partition p's records into a new KeySpill one level down.
  Result<std::unique_ptr<KeySpill>> Split(int partition, const RecordLength& length_of);
  void Fail(const std::string& what, int error);

  std::string dir_;
  int level_ = 0;
  std::vector<int> fds_;
  std::vector<std::string> buffers_;
  std::vector<int64_t> written_;  // per partition: bytes in its file
  int64_t bytes_ = 0;
  Status status_;
};

}  // namespace griffin
