#include "exec/key_spill.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "util/unnamed_file.h"

namespace griffin {

Result<std::unique_ptr<KeySpill>> KeySpill::Open(const std::string& dir, int level) {
  std::unique_ptr<KeySpill> spill(new KeySpill(dir.empty() ? "." : dir, level));
  for (int p = 0; p < kPartitions; ++p) {
    const int fd = OpenUnnamedFile(spill->dir_);
    if (fd < 0)
      return Status::InputError("temporary directory " + spill->dir_ + ": cannot create a spill file: " +
                                std::strerror(errno));
    spill->fds_.push_back(fd);
  }
  spill->buffers_.resize(kPartitions);
  spill->written_.assign(kPartitions, 0);
  return spill;
}

KeySpill::~KeySpill() {
  for (int fd : fds_)
    if (fd >= 0) ::close(fd);
}

void KeySpill::Fail(const std::string& what, int error) {
  if (status_.ok())
    status_ = Status::InputError("temporary directory " + dir_ + ": cannot " + what + " a spill file: " +
                                 std::strerror(error));
}

void KeySpill::Append(uint64_t hash, std::string_view record) {
  const int p = PartitionOf(hash, level_);
  std::string& buffer = buffers_[p];
  buffer.append(record);
  bytes_ += static_cast<int64_t>(record.size());
  if (buffer.size() >= kBufferBytes) Flush(p);
}

void KeySpill::Flush(int p) {
  std::string& buffer = buffers_[p];
  size_t done = 0;
  while (status_.ok() && done < buffer.size()) {
    const ssize_t n = ::pwrite(fds_[p], buffer.data() + done, buffer.size() - done, written_[p]);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      Fail("write", n < 0 ? errno : ENOSPC);
      break;
    }
    done += static_cast<size_t>(n);
    written_[p] += n;
  }
  buffer.clear();
}

Result<std::string> KeySpill::Read(int p) {
  Flush(p);
  RETURN_IF_ERROR(status_);
  std::string bytes(static_cast<size_t>(written_[p]), '\0');
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::pread(fds_[p], bytes.data() + done, bytes.size() - done, static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      Fail("read", n < 0 ? errno : EIO);
      return status_;
    }
    done += static_cast<size_t>(n);
  }
  return bytes;
}

void KeySpill::Drop(int p) {
  std::string().swap(buffers_[p]);
  if (fds_[p] >= 0 && ::ftruncate(fds_[p], 0) == 0) written_[p] = 0;
}

Result<std::unique_ptr<KeySpill>> KeySpill::Split(int p, const RecordLength& length_of) {
  Flush(p);
  RETURN_IF_ERROR(status_);
  ASSIGN_OR_RETURN(std::unique_ptr<KeySpill> child, Open(dir_, level_ + 1));
  constexpr size_t kChunk = size_t{1} << 20;
  std::string chunk;
  size_t used = 0;  // chunk[used, size) are read but not yet appended
  int64_t offset = 0;
  while (offset < written_[p] || used < chunk.size()) {
    size_t length = used < chunk.size() ? length_of(chunk.data() + used, chunk.size() - used) : 0;
    if (length == 0 || length > chunk.size() - used) {  // read more: keep the partial record
      if (offset >= written_[p]) return Status::InputError("temporary directory " + dir_ + ": a spill file ends inside a record");
      chunk.erase(0, used);
      used = 0;
      const size_t want = std::max(kChunk, length);
      const size_t have = chunk.size();
      chunk.resize(have + std::min<size_t>(want, static_cast<size_t>(written_[p] - offset)));
      const ssize_t n = ::pread(fds_[p], chunk.data() + have, chunk.size() - have, static_cast<off_t>(offset));
      if (n < 0 && errno == EINTR) {
        chunk.resize(have);
        continue;
      }
      if (n <= 0) {
        Fail("read", n < 0 ? errno : EIO);
        return status_;
      }
      chunk.resize(have + static_cast<size_t>(n));
      offset += n;
      continue;
    }
    uint64_t hash;
    std::memcpy(&hash, chunk.data() + used, 8);
    child->Append(hash, std::string_view(chunk.data() + used, length));
    used += length;
  }
  Drop(p);
  RETURN_IF_ERROR(child->status());
  return child;
}

Status KeySpill::VisitBounded(int64_t max_bytes, const RecordLength& length_of,
                              const std::function<Status(std::string_view bytes)>& visit) {
  for (int p = 0; p < kPartitions; ++p) {
    if (partition_bytes(p) == 0) continue;
    if (partition_bytes(p) > max_bytes && level_ < kMaxLevel) {
      ASSIGN_OR_RETURN(std::unique_ptr<KeySpill> child, Split(p, length_of));
      RETURN_IF_ERROR(child->VisitBounded(max_bytes, length_of, visit));
      continue;
    }
    ASSIGN_OR_RETURN(std::string bytes, Read(p));
    Drop(p);
    RETURN_IF_ERROR(visit(bytes));
  }
  return Status::OK();
}

}  // namespace griffin
