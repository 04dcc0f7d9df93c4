#include "sinks/output_guard.h"

#include <sys/stat.h>

namespace griffin {

Status RefuseOutputOverFiles(const std::string& option, const std::string& output_path,
                             const std::vector<GuardedFile>& files) {
  struct stat output;
  if (output_path.empty() || ::stat(output_path.c_str(), &output) != 0) return Status::OK();
  for (const GuardedFile& file : files) {
    struct stat guarded;
    if (file.path == "-" || ::stat(file.path.c_str(), &guarded) != 0) continue;
    if (guarded.st_dev == output.st_dev && guarded.st_ino == output.st_ino) {
      return Status::UsageError(option + " " + output_path + ": is the " + file.role + " " + file.path +
                                " (the same file); writing it would replace the " + file.role +
                                "; choose another path");
    }
  }
  return Status::OK();
}

}  // namespace griffin
