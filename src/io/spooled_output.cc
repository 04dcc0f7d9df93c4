#include "io/spooled_output.h"

#include <unistd.h>

#include <filesystem>

namespace griffin {

Status SpooledOutput::Open(const std::string& kind) {
  spool_path_ = (std::filesystem::temp_directory_path() / ("griffin_" + kind + "_XXXXXX")).string();
  const int fd = ::mkstemp(spool_path_.data());
  if (fd < 0) return Status::InputError(display_ + ": cannot create a spool file in the temp folder");
  spool_ = ::fdopen(fd, "wb");
  if (spool_ == nullptr) {
    ::close(fd);
    return Status::InputError(display_ + ": cannot open the spool file " + spool_path_);
  }
  return Status::OK();
}

Status SpooledOutput::Write(std::string_view bytes) {
  if (spool_ == nullptr) return Status::InputError(display_ + ": write after commit or abort");
  if (std::fwrite(bytes.data(), 1, bytes.size(), spool_) != bytes.size())
    return Status::InputError(display_ + ": cannot spool rows to " + spool_path_);
  return Status::OK();
}

Result<CommittedObject> SpooledOutput::Commit() {
  if (spool_ == nullptr) return Status::InputError(display_ + ": commit after abort");
  const bool flushed = std::fflush(spool_) == 0;
  std::fclose(spool_);
  spool_ = nullptr;
  if (!flushed) return Status::InputError(display_ + ": cannot spool rows to " + spool_path_);
  Result<CommittedObject> committed = Publish(spool_path_);
  std::filesystem::remove(spool_path_);
  return committed;
}

void SpooledOutput::Abort() {
  if (spool_ != nullptr) std::fclose(spool_);
  spool_ = nullptr;
  if (spool_path_.empty()) return;
  std::error_code ignored;
  std::filesystem::remove(spool_path_, ignored);
}

}  // namespace griffin
