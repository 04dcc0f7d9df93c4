#include "connectors/kafka/stream_unique_state.h"

#include <algorithm>
#include <charconv>

namespace griffin::kafka {

std::string StreamUniqueState::StoredKey(std::string_view check, std::string_view key) {
  std::string stored;
  stored.reserve(check.size() + 1 + key.size());
  stored.append(check).push_back('\0');
  stored.append(key);
  return stored;
}

bool StreamUniqueState::Seen(std::string_view check, std::string_view key) const {
  probe_.clear();
  probe_.append(check).push_back('\0');
  probe_.append(key);
  return seen_ms_.count(probe_) > 0;
}

void StreamUniqueState::Add(std::string_view check, std::string_view key) { pending_.push_back(StoredKey(check, key)); }

bool StreamUniqueState::Load(std::string_view stored_key, std::optional<std::string_view> value) {
  std::string key(stored_key);
  if (!value) {
    seen_ms_.erase(key);
    return true;
  }
  int64_t ms = 0;
  auto [end, error] = std::from_chars(value->data(), value->data() + value->size(), ms);
  if (error != std::errc() || end != value->data() + value->size()) return false;
  seen_ms_[std::move(key)] = ms;
  return true;
}

void StreamUniqueState::FinishLoading(int64_t now_ms) {
  order_.clear();
  for (const auto& [key, ms] : seen_ms_) order_.emplace_back(ms, &key);
  std::sort(order_.begin(), order_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  Evict(now_ms);
}

void StreamUniqueState::Commit(int64_t now_ms, size_t tombstones_written) {
  tombstones_.erase(tombstones_.begin(), tombstones_.begin() + std::min(tombstones_written, tombstones_.size()));
  for (std::string& key : pending_) {
    auto [entry, added] = seen_ms_.emplace(std::move(key), now_ms);
    if (added) order_.emplace_back(now_ms, &entry->first);
  }
  pending_.clear();
  Evict(now_ms);
}

void StreamUniqueState::Evict(int64_t now_ms) {
  while (!order_.empty()) {
    const bool expired = order_.front().first < now_ms - limits_.retention_ms;
    if (!expired && static_cast<int64_t>(seen_ms_.size()) <= limits_.max_keys) break;
    std::string forgotten = *order_.front().second;
    order_.pop_front();
    seen_ms_.erase(forgotten);
    tombstones_.push_back(std::move(forgotten));
  }
}

}  // namespace griffin::kafka
