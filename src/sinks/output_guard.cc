#include "sinks/output_guard.h"

#include <sys/stat.h>

#include <string_view>

#include "io/source_registry.h"

namespace griffin {

namespace {

std::string_view WithoutQuery(std::string_view uri) { return uri.substr(0, uri.find('?')); }

Status Refuse(const std::string& option, const std::string& output_path, const GuardedFile& file) {
  return Status::UsageError(option + " " + output_path + ": is the " + file.role + " " + file.path +
                            " (the same file); writing it would replace the " + file.role + "; choose another path");
}

}  // namespace

Status RefuseOutputOverFiles(const std::string& option, const std::string& output_path,
                             const std::vector<GuardedFile>& files) {
  if (IsOutputObjectUri(output_path)) {
    // An object: the same URI, whatever its query. A table (an adapter with a
    // declared output format): the same URI, table= included.
    const bool table = AdapterOutputFormat(output_path).has_value();
    for (const GuardedFile& file : files) {
      if (table ? file.path == output_path : WithoutQuery(file.path) == WithoutQuery(output_path))
        return Refuse(option, output_path, file);
    }
    return Status::OK();
  }
  struct stat output;
  if (output_path.empty() || ::stat(output_path.c_str(), &output) != 0) return Status::OK();
  for (const GuardedFile& file : files) {
    struct stat guarded;
    if (file.path == "-" || ::stat(file.path.c_str(), &guarded) != 0) continue;
    if (guarded.st_dev == output.st_dev && guarded.st_ino == output.st_ino) return Refuse(option, output_path, file);
  }
  return Status::OK();
}

}  // namespace griffin
