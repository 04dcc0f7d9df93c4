#include "server/file_text.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace griffin::server {

Result<std::string> ReadFileText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::UsageError("cannot read " + path + ": " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Status::UsageError("cannot read " + path + ": " + std::strerror(errno));
  return text.str();
}

}  // namespace griffin::server
