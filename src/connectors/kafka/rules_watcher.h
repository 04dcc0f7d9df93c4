// Picks up a changed rule file for `griffin stream`, as `griffin serve` does:
// a file whose inode, size or modification time changed, and whose mtime is
// `settle_ms` old (a writer that pauses for less is never read half-way), is
// read; when its sha256 is new it is compiled.
//
//   RulesWatcher watcher(path, validator->rules().sha256);
//   if (auto change = watcher.Poll()) {            // between transactions
//     if (change->validator) validator = change->validator;   // else change->error
//   }
//
// A file that does not compile is reported once per content; the caller keeps
// the rules it has. Not thread-safe.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "api/validator.h"

namespace griffin::kafka {

class RulesWatcher {
 public:
  RulesWatcher(std::string path, std::string loaded_sha256, int64_t settle_ms = 1000);

  struct Change {
    std::shared_ptr<const Validator> validator;  // the new rules; null when they were refused
    std::string error;                           // why they were refused
  };
  // nullopt: nothing new (unchanged, not settled, unreadable, or a refusal
  // already reported).
  std::optional<Change> Poll();

 private:
  std::string path_;
  std::string seen_sha256_;  // the last content loaded or refused
  ino_t inode_ = 0;
  off_t size_ = -1;
  int64_t mtime_ns_ = -1;
  int64_t settle_ms_;
};

}  // namespace griffin::kafka
