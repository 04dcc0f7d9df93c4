#include "sinks/atomic_file.h"

#include <fcntl.h>
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "io/source_registry.h"
#include "util/random_hex.h"
#include "util/sha256.h"

namespace griffin {
namespace {

constexpr size_t kBufferBytes = 1 << 20;

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


// Temp files of the same output left by a process that died (SIGKILL, power
// loss) would pile up run after run; remove those whose pid no longer exists.
void RemoveStaleTempFiles(const std::string& dir, const std::string& name_prefix) {
  DIR* listing = ::opendir(dir.c_str());
  if (listing == nullptr) return;
  while (const dirent* entry = ::readdir(listing)) {
    std::string_view name(entry->d_name);
    if (name.substr(0, name_prefix.size()) != name_prefix) continue;
    std::string_view rest = name.substr(name_prefix.size());
    const size_t dash = rest.find('-');
    if (dash == std::string_view::npos || dash == 0) continue;
    pid_t pid = 0;
    for (char c : rest.substr(0, dash)) {
      if (c < '0' || c > '9') { pid = 0; break; }
      pid = pid * 10 + (c - '0');
    }
    if (pid <= 0 || pid == ::getpid()) continue;
    if (::kill(pid, 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to judge
    ::unlink((dir + "/" + std::string(name)).c_str());
  }
  ::closedir(listing);
}

}  // namespace

std::string AtomicFileTempPrefix(const std::string& final_path) {
  auto [dir, name] = SplitPath(final_path);
  return (dir == "/" ? "/" : dir + "/") + "." + name + ".tmp-";
}

Result<std::unique_ptr<AtomicFile>> AtomicFile::Create(const std::string& final_path) {
  if (IsOutputObjectUri(final_path)) {
    ASSIGN_OR_RETURN(std::unique_ptr<OutputObject> object, OpenOutputObject(final_path));
    return std::unique_ptr<AtomicFile>(new AtomicFile(final_path, std::move(object)));
  }
  auto [dir, name] = SplitPath(final_path);
  if (name.empty()) return Status::InputError(final_path + ": output path names a directory");
  struct stat st;
  if (::stat(final_path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    return Status::InputError(final_path + ": output path is a directory");
  RemoveStaleTempFiles(dir, "." + name + ".tmp-");
  const std::string prefix = AtomicFileTempPrefix(final_path) + std::to_string(::getpid()) + "-";
  for (int attempt = 0;; ++attempt) {
    std::string temp_path = prefix + RandomHex();
    int fd = ::open(temp_path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) return std::unique_ptr<AtomicFile>(new AtomicFile(final_path, std::move(temp_path), fd));
    if (errno == EEXIST && attempt < 8) continue;
    return Status::InputError(final_path + ": cannot create a file in " + dir + ": " + std::strerror(errno));
  }
}

AtomicFile::AtomicFile(std::string final_path, std::string temp_path, int fd)
    : final_path_(std::move(final_path)), temp_path_(std::move(temp_path)), fd_(fd) {
  buffer_.reserve(kBufferBytes);
}

AtomicFile::AtomicFile(std::string final_path, std::unique_ptr<OutputObject> object)
    : final_path_(std::move(final_path)), object_(std::move(object)) {
  buffer_.reserve(kBufferBytes);
}

AtomicFile::~AtomicFile() { Abort(); }

Status AtomicFile::WriteOut(std::string_view bytes) {
  hash_.Update(bytes);  // hashed as written: no read-back of a large file
  if (object_ != nullptr) return object_->Write(bytes);
  Status status = WriteAll(fd_, bytes.data(), bytes.size());
  if (!status.ok()) return Status::InputError(final_path_ + ": write failed: " + status.message());
  return Status::OK();
}

Status AtomicFile::IoError(const std::string& what, int error_number) const {
  return Status::InputError(final_path_ + ": " + what + ": " + std::strerror(error_number));
}

Status AtomicFile::Append(std::string_view bytes) {
  if (!open_) return Status::Internal(final_path_ + ": append after the file was closed");
  bytes_written_ += static_cast<int64_t>(bytes.size());
  if (buffer_.size() + bytes.size() <= kBufferBytes) {
    buffer_.append(bytes);
    return Status::OK();
  }
  RETURN_IF_ERROR(Flush());
  if (bytes.size() >= kBufferBytes) return WriteOut(bytes);
  buffer_.append(bytes);
  return Status::OK();
}

Status AtomicFile::Flush() {
  if (buffer_.empty()) return Status::OK();
  Status status = WriteOut(buffer_);
  buffer_.clear();
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
    done.sha256 = hash_.FinishHex();
    done.etag = committed->etag;
    done.table_version = committed->table_version;
    return done;
  }
  if (::fsync(fd_) != 0) {
    Status error = IoError("fsync failed", errno);
    Abort();
    return error;
  }
  std::string hash = hash_.FinishHex();
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
  buffer_.clear();
}

Status WriteFileAtomically(const std::string& path, std::string_view bytes) {
  ASSIGN_OR_RETURN(auto file, AtomicFile::Create(path));
  RETURN_IF_ERROR(file->Append(bytes));
  return file->Commit().status();
}

}  // namespace griffin
