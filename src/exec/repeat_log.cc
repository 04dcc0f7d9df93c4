#include "exec/repeat_log.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "util/unnamed_file.h"

namespace griffin {
namespace {

constexpr size_t kPendingEntries = size_t{1} << 12;      // 64 KiB written at a time
constexpr size_t kReadBudgetEntries = size_t{1} << 18;   // 4 MiB of read buffers, all runs together
constexpr size_t kMinRunBufferEntries = 64;

}  // namespace

Result<std::unique_ptr<RepeatLog>> RepeatLog::Open(const std::string& dir) {
  const std::string where = dir.empty() ? "." : dir;
  const int fd = OpenUnnamedFile(where);
  if (fd < 0)
    return Status::InputError("temporary directory " + where + ": cannot create a spill file: " + std::strerror(errno));
  return std::unique_ptr<RepeatLog>(new RepeatLog(where, fd));
}

RepeatLog::~RepeatLog() {
  if (fd_ >= 0) ::close(fd_);
}

void RepeatLog::Fail(const std::string& what, int error) {
  if (status_.ok())
    status_ = Status::InputError("temporary directory " + dir_ + ": cannot " + what + " a spill file: " +
                                 std::strerror(error));
}

void RepeatLog::Add(int64_t row, int64_t first_row) {
  if (reading_) {
    Fail("append to", EBADF);
    return;
  }
  const bool continues = !runs_.empty() && row > last_row_;
  if (!continues) {
    runs_.emplace_back();
    runs_.back().begin = runs_.back().end = count_;
  }
  ++runs_.back().end;
  last_row_ = row;
  pending_.push_back({row, first_row});
  ++count_;
  if (pending_.size() >= kPendingEntries) Flush();
}

void RepeatLog::Flush() {
  const char* data = reinterpret_cast<const char*>(pending_.data());
  const size_t size = pending_.size() * sizeof(LoggedRepeat);
  size_t done = 0;
  while (status_.ok() && done < size) {
    const off_t at = static_cast<off_t>(written_ * static_cast<int64_t>(sizeof(LoggedRepeat)) + static_cast<int64_t>(done));
    const ssize_t n = ::pwrite(fd_, data + done, size - done, at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      Fail("write", n < 0 ? errno : ENOSPC);
      break;
    }
    done += static_cast<size_t>(n);
  }
  written_ += static_cast<int64_t>(pending_.size());
  pending_.clear();
}

Status RepeatLog::Refill(Run& run) {
  const size_t want = static_cast<size_t>(std::min<int64_t>(static_cast<int64_t>(run_buffer_entries_), run.end - run.next));
  run.buffer.resize(want);
  run.at = 0;
  char* data = reinterpret_cast<char*>(run.buffer.data());
  const size_t size = want * sizeof(LoggedRepeat);
  size_t done = 0;
  while (done < size) {
    const off_t at = static_cast<off_t>(run.next * static_cast<int64_t>(sizeof(LoggedRepeat)) + static_cast<int64_t>(done));
    const ssize_t n = ::pread(fd_, data + done, size - done, at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      Fail("read", n < 0 ? errno : EIO);
      return status_;
    }
    done += static_cast<size_t>(n);
  }
  run.next += static_cast<int64_t>(want);
  return Status::OK();
}

Status RepeatLog::StartReading() {
  if (!reading_) {
    reading_ = true;
    Flush();
  }
  RETURN_IF_ERROR(status_);
  run_buffer_entries_ = std::max(kMinRunBufferEntries, kReadBudgetEntries / std::max<size_t>(1, runs_.size()));
  heap_.clear();
  for (size_t r = 0; r < runs_.size(); ++r) {
    Run& run = runs_[r];
    run.next = run.begin;
    run.buffer.clear();
    if (run.begin == run.end) continue;
    RETURN_IF_ERROR(Refill(run));
    heap_.push_back(r);
  }
  std::make_heap(heap_.begin(), heap_.end(), [this](size_t a, size_t b) { return RowAt(a) > RowAt(b); });
  return Status::OK();
}

Status RepeatLog::TakeBefore(int64_t end_row, std::vector<LoggedRepeat>* out) {
  out->clear();
  if (!reading_) return Status::Internal("RepeatLog::TakeBefore before StartReading");
  RETURN_IF_ERROR(status_);
  auto later = [this](size_t a, size_t b) { return RowAt(a) > RowAt(b); };
  while (!heap_.empty() && RowAt(heap_.front()) < end_row) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const size_t r = heap_.back();
    Run& run = runs_[r];
    // Take the run's repeats while they stay below the next run's first row.
    const int64_t bound = heap_.size() > 1 ? std::min(end_row, RowAt(heap_.front())) : end_row;
    do {
      out->push_back(run.buffer[run.at++]);
      if (run.at == run.buffer.size()) {
        if (run.next == run.end) break;
        RETURN_IF_ERROR(Refill(run));
      }
    } while (run.buffer[run.at].row < bound);
    if (run.at == run.buffer.size()) {  // the run is read
      heap_.pop_back();
      std::vector<LoggedRepeat>().swap(run.buffer);
    } else {
      std::push_heap(heap_.begin(), heap_.end(), later);
    }
  }
  return Status::OK();
}

}  // namespace griffin
