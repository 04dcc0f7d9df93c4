#include "server/batch_scores.h"

namespace griffin::server {
namespace {

std::string KeyOf(const std::string& dataset, const std::string& hash) {
  std::string key = dataset;
  key.push_back('\0');
  key += hash;
  return key;
}

}  // namespace

void BatchScores::Put(const std::string& dataset, const std::string& hash, BatchScore score) {
  if (capacity_ == 0) return;
  std::string key = KeyOf(dataset, hash);
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = index_.find(key);
  if (found != index_.end()) {
    found->second->second = std::move(score);
    order_.splice(order_.begin(), order_, found->second);
    return;
  }
  order_.emplace_front(key, std::move(score));
  index_.emplace(std::move(key), order_.begin());
  while (order_.size() > capacity_) {
    index_.erase(order_.back().first);
    order_.pop_back();
  }
}

std::optional<BatchScore> BatchScores::Get(const std::string& dataset, const std::string& hash) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = index_.find(KeyOf(dataset, hash));
  if (found == index_.end()) return std::nullopt;
  order_.splice(order_.begin(), order_, found->second);
  return found->second->second;
}

size_t BatchScores::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return order_.size();
}

bool IsValidBatchHash(const std::string& hash) {
  if (hash.empty() || hash.size() > 128) return false;
  for (char c : hash) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '_' || c == ':' || c == '-';
    if (!ok) return false;
  }
  return true;
}

}  // namespace griffin::server
