// The repeats of one `unique` check, as (row, first_row) pairs, on an unnamed
// temporary file (util/unnamed_file.h: nothing is left behind):
// what the first pass of a two-pass run writes (a run whose `unique` state
// passed --memory-limit while it also writes --clean/--quarantine), and what
// its second pass reads instead of holding the keys.
//
// Repeats may be added in any order of runs: each ascending sequence of rows
// is a run (a spilled check's repeats come partition by partition, each in
// row order). Reading merges the runs by row, holding a bounded buffer per
// run. Errors are sticky: Add never fails, status() says whether every
// repeat was written.
//
//   ASSIGN_OR_RETURN(auto log, RepeatLog::Open("/tmp"));
//   log->Add(row, first_row);  ...
//   RETURN_IF_ERROR(log->StartReading());
//   RETURN_IF_ERROR(log->TakeBefore(end_row, &repeats));  // per batch, ascending end rows
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "util/status.h"

namespace griffin {

struct LoggedRepeat {
  int64_t row = 0;        // the repeating row
  int64_t first_row = 0;  // the row whose key it repeats
};

class RepeatLog {
 public:
  // An InputError names the directory when the file cannot be created.
  static Result<std::unique_ptr<RepeatLog>> Open(const std::string& dir);
  ~RepeatLog();
  RepeatLog(const RepeatLog&) = delete;
  RepeatLog& operator=(const RepeatLog&) = delete;

  void Add(int64_t row, int64_t first_row);
  const Status& status() const { return status_; }
  int64_t repeats() const { return count_; }
  int64_t runs() const { return static_cast<int64_t>(runs_.size()); }

  // After the last Add: the repeats are read back from the first row on.
  Status StartReading();
  // Appends to *out (cleared first) the unread repeats of rows < end_row,
  // ascending by row.
  Status TakeBefore(int64_t end_row, std::vector<LoggedRepeat>* out);

 private:
  struct Run {
    int64_t begin = 0, end = 0;  // entries [begin, end) of the file
    int64_t next = 0;            // reading: the next entry not yet buffered
    std::vector<LoggedRepeat> buffer;
    size_t at = 0;               // reading: buffer[at] is the run's smallest unread
  };
  RepeatLog(std::string dir, int fd) : dir_(std::move(dir)), fd_(fd) {}
  void Flush();
  Status Refill(Run& run);
  void Fail(const std::string& what, int error);
  int64_t RowAt(size_t run) const { return runs_[run].buffer[runs_[run].at].row; }

  std::string dir_;
  int fd_ = -1;
  std::vector<LoggedRepeat> pending_;  // added, not yet written
  int64_t written_ = 0;                // entries in the file
  int64_t count_ = 0;
  int64_t last_row_ = 0;               // the last added row
  std::vector<Run> runs_;
  std::vector<size_t> heap_;           // reading: runs with unread repeats, a min-heap by their next row
  size_t run_buffer_entries_ = 0;
  bool reading_ = false;
  Status status_;
};

}  // namespace griffin
