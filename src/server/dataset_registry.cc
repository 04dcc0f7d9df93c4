#include "server/dataset_registry.h"

#include <sys/stat.h>

#include "rules/alert_loader.h"

#include <algorithm>
#include <filesystem>

#include "store/store_records.h"
#include "server/file_text.h"
#include "util/sha256.h"

namespace griffin::server {
namespace fs = std::filesystem;
namespace {

bool UsesNow(const RuleSet& rules) {
  for (const ColumnRule& column : rules.columns)
    for (const ColumnCheck& check : column.checks)
      if (check.bound.kind == Literal::Kind::kNow) return true;
  for (const TableCheck& check : rules.table) {
    if ((check.min && check.min->kind == Literal::Kind::kNow) || (check.max && check.max->kind == Literal::Kind::kNow))
      return true;
  }
  return false;
}

int64_t MtimeNs(const struct stat& info) {
  return static_cast<int64_t>(info.st_mtim.tv_sec) * 1000000000 + info.st_mtim.tv_nsec;
}

// Modified less than `settle` ago (or as far ahead, for a clock set back).
bool IsYoung(int64_t mtime_ns, std::chrono::milliseconds settle) {
  const int64_t now_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                             std::chrono::system_clock::now().time_since_epoch()).count();
  const int64_t settle_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(settle).count();
  return now_ns - mtime_ns < settle_ns && mtime_ns - now_ns < settle_ns;
}

}  // namespace

DatasetRegistry::DatasetRegistry(std::string dir, Events events, std::chrono::milliseconds settle)
    : dir_(std::move(dir)), events_(std::move(events)), settle_(settle) {}

DatasetRegistry::~DatasetRegistry() { StopWatching(); }

Result<std::vector<std::string>> DatasetRegistry::ListFiles() const {
  std::error_code error;
  if (!fs::is_directory(dir_, error)) return Status::UsageError("--rules-dir " + dir_ + ": not a directory");
  std::vector<std::string> paths;
  for (fs::directory_iterator it(dir_, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.' || it->path().extension() != ".yaml") continue;
    if (!it->is_regular_file(error)) continue;
    paths.push_back(it->path().string());
  }
  if (error) return Status::UsageError("--rules-dir " + dir_ + ": " + error.message());
  std::sort(paths.begin(), paths.end());
  return paths;
}

std::optional<Status> DatasetRegistry::Update(const std::string& path, FileState& state, bool settle_young) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return std::nullopt;  // gone meanwhile: the next scan removes it
  const int64_t mtime_ns = MtimeNs(info);
  if (state.inode == info.st_ino && state.size == info.st_size && state.mtime_ns == mtime_ns) return std::nullopt;
  if (settle_young && IsYoung(mtime_ns, settle_)) return std::nullopt;  // maybe still being written: a later scan
  Result<std::string> text = ReadFileText(path);
  struct stat after {};
  if (settle_young && (::stat(path.c_str(), &after) != 0 || after.st_ino != info.st_ino ||
                       after.st_size != info.st_size || MtimeNs(after) != mtime_ns)) {
    return std::nullopt;  // written while being read: a later scan
  }
  state.inode = info.st_ino;
  state.size = info.st_size;
  state.mtime_ns = mtime_ns;
  if (!text.ok()) return text.status();
  const std::string sha = Sha256Hex(*text);
  if (sha == state.sha256) return std::nullopt;  // same content (touched, or refused before)
  state.sha256 = sha;
  if (!state.dataset.empty()) {
    std::shared_ptr<const Dataset> current = Find(state.dataset);
    if (current != nullptr && current->sha256 == sha) return std::nullopt;  // back to the loaded text
  }
  auto validator = Validator::FromText(*text, path);
  if (!validator.ok()) return validator.status();
  const std::string& name = (*validator)->rules().dataset;
  std::shared_ptr<const Dataset> previous = Find(name);
  state.conflict = previous != nullptr && previous->path != path;
  if (state.conflict) {
    return Status::RuleError(path + ": dataset '" + name + "' is already defined by " + previous->path);
  }
  if (!state.dataset.empty() && state.dataset != name) Remove(state.dataset);  // the file renamed its dataset
  auto dataset = std::make_shared<Dataset>();
  dataset->name = name;
  dataset->path = path;
  dataset->sha256 = sha;
  dataset->validator = *validator;
  dataset->generation = previous ? previous->generation + 1 : 1;
  dataset->loaded_at = IsoNow();
  dataset->uses_now = UsesNow(dataset->rules());
  Result<std::vector<AlertTarget>> alerts = LoadRuleFileAlerts(dataset->rules());  // checked at load
  if (alerts.ok()) dataset->alerts = std::move(alerts).value();
  state.dataset = name;
  Install(dataset);
  if (events_.loaded) events_.loaded(*dataset, previous.get());
  return std::nullopt;
}

Status DatasetRegistry::LoadAll() {
  std::lock_guard<std::mutex> scan(scan_mutex_);
  ASSIGN_OR_RETURN(std::vector<std::string> paths, ListFiles());
  for (const std::string& path : paths) {
    std::optional<Status> refused = Update(path, files_[path], /*settle_young=*/false);
    if (refused) return *refused;
  }
  return Status::OK();
}

void DatasetRegistry::Rescan() {
  std::lock_guard<std::mutex> scan(scan_mutex_);
  Result<std::vector<std::string>> paths = ListFiles();
  if (!paths.ok()) {
    if (events_.refused) events_.refused(dir_, paths.status());
    return;
  }
  // Removed files first, so that a file refused for naming their dataset
  // may take it over in this scan.
  bool removed = false;
  for (auto it = files_.begin(); it != files_.end();) {
    if (std::binary_search(paths->begin(), paths->end(), it->first)) {
      ++it;
      continue;
    }
    if (!it->second.dataset.empty()) Remove(it->second.dataset);
    removed = true;
    it = files_.erase(it);
  }
  for (const std::string& path : *paths) {
    FileState& state = files_[path];
    if (removed && state.conflict) state = FileState{};  // read it again
    std::optional<Status> refused = Update(path, state, /*settle_young=*/true);
    if (refused && events_.refused) events_.refused(path, *refused);
  }
}

void DatasetRegistry::Install(std::shared_ptr<const Dataset> dataset) {
  std::lock_guard<std::mutex> lock(mutex_);
  datasets_[dataset->name] = std::move(dataset);
}

void DatasetRegistry::Remove(const std::string& name) {
  std::shared_ptr<const Dataset> removed;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = datasets_.find(name);
    if (found == datasets_.end()) return;
    removed = std::move(found->second);
    datasets_.erase(found);
  }
  if (events_.removed) events_.removed(*removed);
}

std::shared_ptr<const Dataset> DatasetRegistry::Find(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = datasets_.find(name);
  return found == datasets_.end() ? nullptr : found->second;
}

std::vector<std::shared_ptr<const Dataset>> DatasetRegistry::All() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::shared_ptr<const Dataset>> all;
  for (const auto& [name, dataset] : datasets_) all.push_back(dataset);
  return all;
}

void DatasetRegistry::StartWatching(std::chrono::milliseconds interval) {
  std::lock_guard<std::mutex> lock(watch_mutex_);
  if (watching_) return;
  watching_ = true;
  watcher_ = std::thread([this, interval] {
    std::unique_lock<std::mutex> wait_lock(watch_mutex_);
    while (!watch_wake_.wait_for(wait_lock, interval, [this] { return !watching_; })) {
      wait_lock.unlock();
      Rescan();
      wait_lock.lock();
    }
  });
}

void DatasetRegistry::StopWatching() {
  {
    std::lock_guard<std::mutex> lock(watch_mutex_);
    if (!watching_) return;
    watching_ = false;
  }
  watch_wake_.notify_all();
  if (watcher_.joinable()) watcher_.join();
}

}  // namespace griffin::server
