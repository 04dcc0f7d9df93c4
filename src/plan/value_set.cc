#include "plan/value_set.h"

#include <algorithm>
#include <cstring>

namespace griffin {
namespace {

constexpr uint64_t kMaxBitmapSpan = 65536;  // 8 KB of bitmap at most
constexpr size_t kLinearScan = 8;           // up to this many entries, scan instead of bisecting

}  // namespace

IntValueSet::IntValueSet(std::vector<int64_t> values) : sorted_(std::move(values)) {
  std::sort(sorted_.begin(), sorted_.end());
  sorted_.erase(std::unique(sorted_.begin(), sorted_.end()), sorted_.end());
  if (sorted_.empty()) return;
  const uint64_t span = static_cast<uint64_t>(sorted_.back()) - static_cast<uint64_t>(sorted_.front());
  if (span >= kMaxBitmapSpan) return;
  min_ = sorted_.front();
  span_ = span + 1;
  bitmap_.assign((span_ + 63) / 64, 0);
  for (int64_t v : sorted_) {
    const uint64_t at = static_cast<uint64_t>(v) - static_cast<uint64_t>(min_);
    bitmap_[at >> 6] |= uint64_t{1} << (at & 63);
  }
}

bool IntValueSet::ContainsSorted(int64_t value) const {
  if (sorted_.size() <= kLinearScan) return std::find(sorted_.begin(), sorted_.end(), value) != sorted_.end();
  return std::binary_search(sorted_.begin(), sorted_.end(), value);
}

StringValueSet::StringValueSet(const std::vector<std::string>& values) {
  for (const std::string& v : values) {
    if (v.size() <= 8) short_[v.size()].push_back(Pack(v));
    else long_.push_back(v);
  }
  for (auto& words : short_) {
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
  }
  std::sort(long_.begin(), long_.end());
  long_.erase(std::unique(long_.begin(), long_.end()), long_.end());
}

bool StringValueSet::ContainsLong(std::string_view value) const {
  if (long_.size() <= kLinearScan) {
    for (const std::string& v : long_)
      if (v.size() == value.size() && std::memcmp(v.data(), value.data(), value.size()) == 0) return true;
    return false;
  }
  return std::binary_search(long_.begin(), long_.end(), value,
                            [](std::string_view a, std::string_view b) { return a < b; });
}

}  // namespace griffin
