#include "connectors/objectstore/listing_cache.h"

#include <map>
#include <mutex>

namespace griffin {
namespace {

// Bounds the memory of a long-lived process (a server, a notebook) that
// lists many prefixes: past this many entries the cache starts over.
constexpr size_t kMaxEntries = 100000;

struct Entry {
  arrow::fs::FileInfo info;
  std::chrono::steady_clock::time_point listed_at;
};

std::mutex& Mutex() {
  static std::mutex mutex;
  return mutex;
}

std::map<std::string, Entry>& Entries() {
  static auto* entries = new std::map<std::string, Entry>();
  return *entries;
}

std::string KeyOf(const ObjectUri& uri) { return uri.Display() + "?" + uri.endpoint + "&" + uri.region; }

}  // namespace

void RememberListing(const ObjectUri& uri, const arrow::fs::FileInfo& info) {
  if (info.type() != arrow::fs::FileType::File || info.size() < 0) return;
  std::lock_guard<std::mutex> lock(Mutex());
  if (Entries().size() >= kMaxEntries) Entries().clear();
  Entries()[KeyOf(uri)] = Entry{info, std::chrono::steady_clock::now()};
}

std::optional<arrow::fs::FileInfo> RecentListing(const ObjectUri& uri) {
  std::lock_guard<std::mutex> lock(Mutex());
  auto found = Entries().find(KeyOf(uri));
  if (found == Entries().end()) return std::nullopt;
  if (std::chrono::steady_clock::now() - found->second.listed_at > kListingFreshness) {
    Entries().erase(found);
    return std::nullopt;
  }
  return found->second.info;
}

void ForgetListingsForTesting() {
  std::lock_guard<std::mutex> lock(Mutex());
  Entries().clear();
}

}  // namespace griffin
