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
// Not thread-safe: one writer.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "io/output_object.h"
#include "util/sha256.h"
#include "util/status.h"

namespace griffin {

class AtomicFile {
 public:
  struct Committed {
    int64_t bytes = 0;
    std::string sha256;  // hex sha256 of the file's bytes
    std::string etag;    // an object's ETag or generation; empty for a local file
    int64_t table_version = -1;  // a table's committed version (Delta); -1 otherwise
  };

  // Errors: the directory is missing or not writable, or the final path is a
  // directory (InputError naming the final path).
  static Result<std::unique_ptr<AtomicFile>> Create(const std::string& final_path);

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
  Status Flush();
  Status IoError(const std::string& what, int error_number) const;

  std::string final_path_;
  std::string temp_path_;
  int fd_ = -1;
  std::unique_ptr<OutputObject> object_;  // instead of fd_ for a URI
  bool open_ = true;
  std::string buffer_;
  Sha256Stream hash_;  // of every byte written, in order
  int64_t bytes_written_ = 0;
};

// The temporary name AtomicFile uses for `final_path` ("dir/.name.tmp-"
// followed by the pid and a random suffix); exposed for tests.
std::string AtomicFileTempPrefix(const std::string& final_path);

// Writes `bytes` to `path` whole, through an AtomicFile: the file appears
// complete or not at all.
Status WriteFileAtomically(const std::string& path, std::string_view bytes);

}  // namespace griffin
