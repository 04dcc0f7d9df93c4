// The datasets `griffin serve` knows: one per *.yaml file in the rules
// directory, named by its `dataset:` key, compiled once. Hot reload: Rescan()
// (called every reload interval by a watcher thread, and on SIGHUP) compiles
// changed files and swaps the new version in atomically. A request holds the
// shared_ptr of the version it started with, so requests in flight finish on
// it. A file that no longer compiles is refused (reported once per content)
// and its dataset keeps the version it had; a removed file drops its dataset.
// Two files naming the same dataset: the later in name order is refused.
//
// Find/All are safe on any thread; Rescan and the events run on one thread at
// a time. Files are recognized as changed by (inode, size, mtime) and then by
// their SHA-256, so rewriting the same text is not a reload. Write rule files
// by renaming a complete file into place. A file written in place is read by
// Rescan only once its mtime is `settle` old and it is unchanged across the
// read, so a writer that pauses less than `settle` is never read half-way
// (a half-written file may compile: a rule list cut short).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "alerts/alert_target.h"
#include "api/validator.h"
#include "util/status.h"

namespace griffin::server {

struct Dataset {
  std::string name;
  std::string path;        // its rule file
  std::string sha256;      // of the file's bytes
  std::shared_ptr<const Validator> validator;
  int64_t generation = 1;  // 1 when first loaded, +1 per reload
  std::string loaded_at;   // ISO 8601 UTC
  // The rules compare with `now`: each request compiles them with its own
  // start as `now` (ServiceCore::ValidatorFor), as each CLI run does.
  bool uses_now = false;
  std::vector<AlertTarget> alerts;  // the rule file's `alerts:` (docs/alerts.md)
  const RuleSet& rules() const { return validator->rules(); }
};

class DatasetRegistry {
 public:
  struct Events {
    // A dataset (re)loaded; `previous` is the version it replaces, or null.
    std::function<void(const Dataset& loaded, const Dataset* previous)> loaded;
    // A file that does not compile, or names a dataset another file has.
    std::function<void(const std::string& path, const Status& error)> refused;
    // A dataset whose file is gone.
    std::function<void(const Dataset& removed)> removed;
  };

  DatasetRegistry(std::string dir, Events events, std::chrono::milliseconds settle = {});
  ~DatasetRegistry();

  // The first load: every *.yaml must compile, else the first error (a
  // RuleError naming file and line; a UsageError for an unreadable folder).
  Status LoadAll();
  // Picks up changed, new and removed files.
  void Rescan();

  std::shared_ptr<const Dataset> Find(const std::string& name) const;
  std::vector<std::shared_ptr<const Dataset>> All() const;  // by name

  void StartWatching(std::chrono::milliseconds interval);
  void StopWatching();

 private:
  struct FileState {
    uint64_t inode = 0;
    int64_t size = -1, mtime_ns = -1;
    std::string sha256;          // of the last content read
    std::string dataset;         // the dataset this file defines now ("" if none)
    bool conflict = false;       // refused: its dataset belongs to another file
  };
  // Reads and compiles `path` if it changed (and, with `settle_young`, has
  // settled); a refusal when it must be reported.
  std::optional<Status> Update(const std::string& path, FileState& state, bool settle_young);
  Result<std::vector<std::string>> ListFiles() const;
  void Install(std::shared_ptr<const Dataset> dataset);
  void Remove(const std::string& name);

  const std::string dir_;
  const Events events_;
  const std::chrono::milliseconds settle_;
  std::mutex scan_mutex_;                // one Rescan at a time
  std::map<std::string, FileState> files_;  // by path (under scan_mutex_)
  mutable std::mutex mutex_;             // guards datasets_
  std::map<std::string, std::shared_ptr<const Dataset>> datasets_;
  std::mutex watch_mutex_;
  std::condition_variable watch_wake_;
  bool watching_ = false;
  std::thread watcher_;
};

}  // namespace griffin::server
