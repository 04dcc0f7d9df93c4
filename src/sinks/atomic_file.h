// A file that appears under its final name only when complete.
//
// Create() opens a temporary file in the final path's directory, named
// ".<name>.tmp-<pid>-<random>" so that a leftover from a killed process is easy
// to spot (and never mistaken for the output). Appends are buffered. Commit()
// flushes, fsyncs the file, renames it over the final path (replacing any
// existing file atomically) and fsyncs the directory. Abort(), or destruction
// without Commit(), unlinks the temporary file; the final path is untouched.
//
//   ASSIGN_OR_RETURN(auto file, AtomicFile::Create("out/clean.csv"));
//   RETURN_IF_ERROR(file->Append("a,b\n"));
//   ASSIGN_OR_RETURN(AtomicFile::Committed done, file->Commit());
//
// A final path that is a URI of a store that can write (s3://, gs://; see
// io/output_object.h) has no temporary file: the bytes go to an upload that
// Commit() completes and Abort() aborts, so there too the object appears
// whole or not at all.
//
// Hashing and writing happen off the appending thread: a full buffer is
// queued (at most 4) for a writer thread (started at the first hand-off, so a
// file of one buffer never starts it) while Append fills another, so the
// appender's cost is a copy. A write error is returned by a later Append or by
// Commit; Abort drops what is still queued.
//
// A local file is written with O_DIRECT where the file system allows it
// (whole page-aligned buffers; the tail without it): Commit fsyncs the file in
// any case, and a copy into the page cache first costs as much CPU as the
// write itself. Where O_DIRECT is refused (tmpfs before Linux 6.6, some
// network file systems) the writes are buffered as before.
//
// Not thread-safe: one appender.
#pragma once

#include <condition_variable>
#include <deque>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "io/output_object.h"
#include "util/sha256.h"
#include "util/status.h"

namespace griffin {

struct AtomicFileOptions {
  // Hash the bytes as they are written (Committed::sha256; empty without).
  // The hash is for lineage in a run store, and SHA-256 costs about as much
  // CPU as encoding CSV rows: runs that record no lineage turn it off.
  bool hash = true;
  // Try O_DIRECT for a local file (see above); off, the writes are buffered.
  bool direct_io = true;
  // For a URI's output object (OpenOutputObject): what its adapter takes.
  OutputObjectOptions object;
};

class AtomicFile {
 public:
  struct Committed {
    int64_t bytes = 0;
    std::string sha256;  // hex sha256 of the file's bytes; empty when created without AtomicFileOptions::hash
    std::string etag;    // an object's ETag or generation; empty for a local file
    int64_t table_version = -1;  // a table's committed version (Delta); -1 otherwise
  };

  // Errors: the directory is missing or not writable, or the final path is a
  // directory (InputError naming the final path).
  static Result<std::unique_ptr<AtomicFile>> Create(const std::string& final_path,
                                                    AtomicFileOptions options = {});

  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // Appends bytes (buffered). Errors (disk full, ...) are InputErrors naming
  // the final path; after one, only Abort() is useful.
  Status Append(std::string_view bytes);

  // Flushes, fsyncs, hashes the file, renames it to the final path and fsyncs
  // the directory. After Commit (successful or not) the object is closed.
  Result<Committed> Commit();

  // Closes and unlinks the temporary file. Idempotent; no-op after Commit.
  void Abort();

  const std::string& final_path() const { return final_path_; }
  const std::string& temp_path() const { return temp_path_; }
  // Bytes appended so far (buffered ones included).
  int64_t bytes_written() const { return bytes_written_; }

 private:
  AtomicFile(std::string final_path, std::string temp_path, int fd);
  AtomicFile(std::string final_path, std::unique_ptr<OutputObject> object);
  Status WriteOut(std::string_view bytes);
  // Queues the full buffer for the writer thread (waiting while 4 are
  // queued), starting the thread if needed. Returns the writer's error.
  Status HandOff();
  // Waits until the writer has written everything handed to it, stops it and
  // returns its status. No-op without a writer.
  Status StopWriter();
  void WriterLoop();
  Status Flush();
  Status IoError(const std::string& what, int error_number) const;

  std::string final_path_;
  std::string temp_path_;
  int fd_ = -1;
  std::unique_ptr<OutputObject> object_;  // instead of fd_ for a URI
  bool open_ = true;
  // A page-aligned buffer of kBufferBytes, as O_DIRECT needs.
  struct Buffer {
    Buffer();
    Buffer(Buffer&&) = default;
    Buffer& operator=(Buffer&&) = default;
    std::unique_ptr<char, void (*)(void*)> data;
    size_t size = 0;
    std::string_view view() const { return {data.get(), size}; }
  };
  // Writes `bytes` to the file; with O_DIRECT on, only a multiple of the page
  // size goes direct and the rest is written buffered, which ends direct I/O.
  Status WriteToFile(std::string_view bytes);

  bool direct_ = false;  // fd_ was opened with O_DIRECT and it still holds
  Buffer buffer_;  // filled by Append
  std::unique_ptr<Sha256Stream> hash_;  // of every byte written, in order (null: not hashed); the writer's while it runs

  // The writer thread and what it shares with the appender (under mutex_).
  std::thread writer_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Buffer> queued_;   // full buffers, in file order, not yet taken by the writer
  std::vector<Buffer> spare_;   // written buffers, for Append to fill again
  bool stopping_ = false;
  Status writer_status_;        // the first write error
  int64_t bytes_written_ = 0;
};

// The temporary name AtomicFile uses for `final_path` ("dir/.name.tmp-"
// followed by the pid and a random suffix); exposed for tests.
std::string AtomicFileTempPrefix(const std::string& final_path);

// Writes `bytes` to `path` whole, through an AtomicFile: the file appears
// complete or not at all.
Status WriteFileAtomically(const std::string& path, std::string_view bytes);

}  // namespace griffin
