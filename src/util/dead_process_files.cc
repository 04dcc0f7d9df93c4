#include "util/dead_process_files.h"

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <string_view>

namespace griffin {

std::string PidTaggedPrefix(const std::string& prefix) { return prefix + std::to_string(::getpid()) + "-"; }

int RemoveDeadProcessFiles(const std::string& dir, const std::string& prefix) {
  DIR* listing = ::opendir(dir.c_str());
  if (listing == nullptr) return 0;
  int removed = 0;
  while (const dirent* entry = ::readdir(listing)) {
    std::string_view name(entry->d_name);
    if (name.substr(0, prefix.size()) != prefix) continue;
    std::string_view rest = name.substr(prefix.size());
    const size_t dash = rest.find('-');
    if (dash == std::string_view::npos || dash == 0 || dash > 9) continue;
    pid_t pid = 0;
    for (char c : rest.substr(0, dash)) {
      if (c < '0' || c > '9') { pid = 0; break; }
      pid = pid * 10 + (c - '0');
    }
    if (pid <= 0 || pid == ::getpid()) continue;
    if (::kill(pid, 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to judge
    if (::unlink((dir + "/" + std::string(name)).c_str()) == 0) ++removed;
  }
  ::closedir(listing);
  return removed;
}

}  // namespace griffin
