#include "io/spooled_output.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "util/unnamed_file.h"

namespace griffin {

Status SpooledOutput::Open(const std::string& kind, const std::string& temp_dir) {
  spool_dir_ = temp_dir;
  if (spool_dir_.empty()) {
    std::error_code error;
    spool_dir_ = std::filesystem::temp_directory_path(error).string();
    if (error) return Status::InputError(display_ + ": no temp folder for the " + kind + " spool: " + error.message());
  }
  const int fd = OpenUnnamedFile(spool_dir_);
  if (fd < 0)
    return Status::InputError(display_ + ": cannot create a spool file in " + spool_dir_ + ": " +
                              std::strerror(errno));
  spool_ = ::fdopen(fd, "wb");
  if (spool_ == nullptr) {
    const int fdopen_error = errno;
    ::close(fd);
    return Status::InputError(display_ + ": cannot open a spool file in " + spool_dir_ + ": " +
                              std::strerror(fdopen_error));
  }
  return Status::OK();
}

Status SpooledOutput::Write(std::string_view bytes) {
  if (spool_ == nullptr) return Status::InputError(display_ + ": write after commit or abort");
  if (std::fwrite(bytes.data(), 1, bytes.size(), spool_) != bytes.size())
    return Status::InputError(display_ + ": cannot spool rows to a temporary file in " + spool_dir_ + ": " +
                              std::strerror(errno));
  return Status::OK();
}

Result<CommittedObject> SpooledOutput::Commit() {
  if (spool_ == nullptr) return Status::InputError(display_ + ": commit after abort");
  if (std::fflush(spool_) != 0) {
    const int error = errno;
    Abort();
    return Status::InputError(display_ + ": cannot spool rows to a temporary file in " + spool_dir_ + ": " +
                              std::strerror(error));
  }
  // The spool has no name: the publisher reads it through its open descriptor,
  // which closes (and so frees the file) after publishing.
  Result<CommittedObject> committed = Publish(OpenFilePath(::fileno(spool_)));
  Abort();
  return committed;
}

void SpooledOutput::Abort() {
  if (spool_ != nullptr) std::fclose(spool_);
  spool_ = nullptr;
}

}  // namespace griffin
