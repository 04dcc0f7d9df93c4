#include "sinks/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>

#include "io/source_registry.h"
#include "util/alloc_failure.h"
#include "util/dead_process_files.h"
#include "util/random_hex.h"
#include "util/sha256.h"

namespace griffin {
namespace {

constexpr size_t kBufferBytes = 1 << 20;
// Full buffers waiting for the writer before Append waits: enough to ride out
// a slow write (O_DIRECT writes wait for the disk), 4 MiB of memory at most.
constexpr size_t kQueuedBuffers = 4;
constexpr size_t kPageBytes = 4096;  // O_DIRECT's alignment on every Linux file system Griffin meets

// "dir/name" -> {"dir", "name"}; "name" -> {".", "name"}.
std::pair<std::string, std::string> SplitPath(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return {".", path};
  if (slash == 0) return {"/", path.substr(1)};
  return {path.substr(0, slash), path.substr(slash + 1)};
}

Status WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status(StatusCode::kInternal, std::strerror(errno));
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return Status::OK();
}


}  // namespace

std::string AtomicFileTempPrefix(const std::string& final_path) {
  auto [dir, name] = SplitPath(final_path);
  return (dir == "/" ? "/" : dir + "/") + "." + name + ".tmp-";
}

Result<std::unique_ptr<AtomicFile>> AtomicFile::Create(const std::string& final_path, AtomicFileOptions options) {
  if (IsOutputObjectUri(final_path)) {
    ASSIGN_OR_RETURN(std::unique_ptr<OutputObject> object, OpenOutputObject(final_path, options.object));
    auto file = std::unique_ptr<AtomicFile>(new AtomicFile(final_path, std::move(object)));
    if (options.hash) file->hash_ = std::make_unique<Sha256Stream>();
    return file;
  }
  auto [dir, name] = SplitPath(final_path);
  if (name.empty()) return Status::InputError(final_path + ": output path names a directory");
  struct stat st;
  if (::stat(final_path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    return Status::InputError(final_path + ": output path is a directory");
  // Temp files of the same output left by a process that died (SIGKILL, power
  // loss) would pile up run after run.
  RemoveDeadProcessFiles(dir, "." + name + ".tmp-");
  const std::string prefix = PidTaggedPrefix(AtomicFileTempPrefix(final_path));
  for (int attempt = 0;; ++attempt) {
    std::string temp_path = prefix + RandomHex();
    const int flags = O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC;
    bool direct = options.direct_io;
    int fd = ::open(temp_path.c_str(), flags | (direct ? O_DIRECT : 0), 0666);
    if (fd < 0 && direct && errno == EINVAL) {  // the file system refuses O_DIRECT
      direct = false;
      fd = ::open(temp_path.c_str(), flags, 0666);
    }
    if (fd >= 0) {
      auto file = std::unique_ptr<AtomicFile>(new AtomicFile(final_path, std::move(temp_path), fd));
      file->direct_ = direct;
      if (options.hash) file->hash_ = std::make_unique<Sha256Stream>();
      return file;
    }
    if (errno == EEXIST && attempt < 8) continue;
    return Status::InputError(final_path + ": cannot create a file in " + dir + ": " + std::strerror(errno));
  }
}

AtomicFile::Buffer::Buffer() : data(static_cast<char*>(std::aligned_alloc(kPageBytes, kBufferBytes)), &std::free) {
  if (data == nullptr) FailAllocation();
}

AtomicFile::AtomicFile(std::string final_path, std::string temp_path, int fd)
    : final_path_(std::move(final_path)), temp_path_(std::move(temp_path)), fd_(fd) {}

AtomicFile::AtomicFile(std::string final_path, std::unique_ptr<OutputObject> object)
    : final_path_(std::move(final_path)), object_(std::move(object)) {}

AtomicFile::~AtomicFile() { Abort(); }

void AtomicFile::WriterLoop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    changed_.wait(lock, [&] { return !queued_.empty() || stopping_; });
    if (queued_.empty()) return;  // stopping with nothing left
    Buffer next = std::move(queued_.front());
    queued_.pop_front();
    const bool failed_before = !writer_status_.ok();
    lock.unlock();
    Status written = failed_before ? Status::OK() : WriteOut(next.view());
    next.size = 0;
    lock.lock();
    if (!written.ok() && writer_status_.ok()) writer_status_ = written;
    spare_.push_back(std::move(next));
    changed_.notify_all();
  }
}

Status AtomicFile::HandOff() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return queued_.size() < kQueuedBuffers; });
  if (!writer_status_.ok()) return writer_status_;
  if (buffer_.size == 0) return Status::OK();
  queued_.push_back(std::move(buffer_));
  if (!spare_.empty()) {
    buffer_ = std::move(spare_.back());
    spare_.pop_back();
  } else {
    buffer_ = Buffer();
  }
  if (!writer_.joinable()) writer_ = std::thread([this] { WriterLoop(); });
  changed_.notify_all();
  return Status::OK();
}

Status AtomicFile::StopWriter() {
  if (!writer_.joinable()) return Status::OK();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  writer_.join();
  std::lock_guard<std::mutex> lock(mutex_);
  stopping_ = false;
  return writer_status_;
}

Status AtomicFile::WriteOut(std::string_view bytes) {
  if (hash_ != nullptr) hash_->Update(bytes);  // hashed as written: no read-back of a large file
  if (object_ != nullptr) return object_->Write(bytes);
  Status status = WriteToFile(bytes);
  if (!status.ok()) return Status::InputError(final_path_ + ": write failed: " + status.message());
  return Status::OK();
}

Status AtomicFile::WriteToFile(std::string_view bytes) {
  if (direct_) {
    const size_t whole_pages = bytes.size() / kPageBytes * kPageBytes;
    const bool aligned = reinterpret_cast<uintptr_t>(bytes.data()) % kPageBytes == 0;
    if (aligned && whole_pages > 0) {
      ssize_t n;
      do n = ::write(fd_, bytes.data(), whole_pages);
      while (n < 0 && errno == EINTR);
      if (n == static_cast<ssize_t>(whole_pages)) {
        bytes.remove_prefix(whole_pages);
        if (bytes.empty()) return Status::OK();
      } else if (n > 0) {
        bytes.remove_prefix(static_cast<size_t>(n));  // a short write: the rest goes buffered
      } else if (errno != EINVAL) {
        return Status(StatusCode::kInternal, std::strerror(errno));
      }  // EINVAL: this file system takes O_DIRECT at open but not at write
    }
    // The tail (or anything unaligned) is written through the page cache, and
    // direct I/O ends: the file offset is no longer page-aligned.
    const int flags = ::fcntl(fd_, F_GETFL);
    if (flags < 0 || ::fcntl(fd_, F_SETFL, flags & ~O_DIRECT) != 0)
      return Status(StatusCode::kInternal, std::strerror(errno));
    direct_ = false;
  }
  return WriteAll(fd_, bytes.data(), bytes.size());
}

Status AtomicFile::IoError(const std::string& what, int error_number) const {
  return Status::InputError(final_path_ + ": " + what + ": " + std::strerror(error_number));
}

Status AtomicFile::Append(std::string_view bytes) {
  if (!open_) return Status::Internal(final_path_ + ": append after the file was closed");
  bytes_written_ += static_cast<int64_t>(bytes.size());
  while (buffer_.size + bytes.size() >= kBufferBytes) {
    const size_t room = kBufferBytes - buffer_.size;
    std::memcpy(buffer_.data.get() + buffer_.size, bytes.data(), room);
    buffer_.size = kBufferBytes;
    bytes.remove_prefix(room);
    RETURN_IF_ERROR(HandOff());
  }
  if (!bytes.empty()) std::memcpy(buffer_.data.get() + buffer_.size, bytes.data(), bytes.size());
  buffer_.size += bytes.size();
  return Status::OK();
}

// Everything appended reaches the file (or the object) before it returns; the
// writer thread is stopped.
Status AtomicFile::Flush() {
  RETURN_IF_ERROR(StopWriter());
  if (buffer_.size == 0) return Status::OK();
  Status status = WriteOut(buffer_.view());
  buffer_.size = 0;
  return status;
}

Result<AtomicFile::Committed> AtomicFile::Commit() {
  if (!open_) return Status::Internal(final_path_ + ": commit after the file was closed");
  Status flushed = Flush();
  if (!flushed.ok()) {
    Abort();
    return flushed;
  }
  if (object_ != nullptr) {
    open_ = false;
    Result<CommittedObject> committed = object_->Commit();
    object_.reset();
    if (!committed.ok()) return committed.status();
    Committed done;
    done.bytes = bytes_written_;
    if (hash_ != nullptr) done.sha256 = hash_->FinishHex();
    done.etag = committed->etag;
    done.table_version = committed->table_version;
    return done;
  }
  if (::fsync(fd_) != 0) {
    Status error = IoError("fsync failed", errno);
    Abort();
    return error;
  }
  std::string hash = hash_ != nullptr ? hash_->FinishHex() : std::string();
  ::close(fd_);
  fd_ = -1;
  open_ = false;
  if (::rename(temp_path_.c_str(), final_path_.c_str()) != 0) {
    Status error = IoError("cannot rename " + temp_path_ + " to its final name", errno);
    ::unlink(temp_path_.c_str());
    temp_path_.clear();
    return error;
  }
  temp_path_.clear();
  // Make the rename itself durable.
  const std::string dir = SplitPath(final_path_).first;
  int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
  Committed done;
  done.bytes = bytes_written_;
  done.sha256 = std::move(hash);
  return done;
}

void AtomicFile::Abort() {
  open_ = false;
  {
    // The file goes: what is queued need not be written first.
    std::lock_guard<std::mutex> lock(mutex_);
    queued_.clear();
  }
  (void)StopWriter();  // its error no longer matters either
  if (object_ != nullptr) {
    object_->Abort();
    object_.reset();
  }
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
  if (!temp_path_.empty()) {
    ::unlink(temp_path_.c_str());
    temp_path_.clear();
  }
  buffer_.size = 0;
}

Status WriteFileAtomically(const std::string& path, std::string_view bytes) {
  ASSIGN_OR_RETURN(auto file, AtomicFile::Create(path));
  RETURN_IF_ERROR(file->Append(bytes));
  return file->Commit().status();
}

}  // namespace griffin
