#include "connectors/kafka/rules_watcher.h"

#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include "util/sha256.h"

namespace griffin::kafka {

RulesWatcher::RulesWatcher(std::string path, std::string loaded_sha256, int64_t settle_ms)
    : path_(std::move(path)), seen_sha256_(std::move(loaded_sha256)), settle_ms_(settle_ms) {
  struct stat info;
  if (stat(path_.c_str(), &info) == 0) {
    inode_ = info.st_ino;
    size_ = info.st_size;
    mtime_ns_ = int64_t{info.st_mtim.tv_sec} * 1000000000 + info.st_mtim.tv_nsec;
  }
}

std::optional<RulesWatcher::Change> RulesWatcher::Poll() {
  struct stat info;
  if (stat(path_.c_str(), &info) != 0) return std::nullopt;  // gone for now: keep the rules in use
  const int64_t mtime_ns = int64_t{info.st_mtim.tv_sec} * 1000000000 + info.st_mtim.tv_nsec;
  if (info.st_ino == inode_ && info.st_size == size_ && mtime_ns == mtime_ns_) return std::nullopt;
  const int64_t now_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                             std::chrono::system_clock::now().time_since_epoch()).count();
  if (now_ns - mtime_ns < settle_ms_ * 1000000) return std::nullopt;  // still being written, maybe
  std::ifstream in(path_, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  inode_ = info.st_ino;
  size_ = info.st_size;
  mtime_ns_ = mtime_ns;
  const std::string sha256 = Sha256Hex(text.str());
  if (sha256 == seen_sha256_) return std::nullopt;
  seen_sha256_ = sha256;
  Result<std::shared_ptr<const Validator>> compiled = Validator::FromText(text.str(), path_);
  if (!compiled.ok()) return Change{nullptr, compiled.status().message()};
  return Change{std::move(compiled).value(), ""};
}

}  // namespace griffin::kafka
