// The data scores of recent batches, by the client's batch_hash, so that
// POST /metrics can name a batch validated earlier (by /metrics records, a
// validate call with ?batch_hash=, or an Arrow Flight exchange) instead of
// sending its rows again. A bounded LRU: at most `capacity` entries (about
// 200 bytes each plus the reasons' text); the least recently used is dropped.
// Thread-safe.
#pragma once

#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace griffin::server {

struct BatchScore {
  double quality_score = 1.0;        // the batch's report
  bool passed = true;
  int64_t rows = 0, bad_rows = 0;
  std::vector<std::string> reasons;  // its failing error checks, worst first
  std::string rules_sha256;          // the rules it was judged by
};

class BatchScores {
 public:
  explicit BatchScores(size_t capacity) : capacity_(capacity) {}
  // Remembers (or replaces) the score of `hash` in `dataset`.
  void Put(const std::string& dataset, const std::string& hash, BatchScore score);
  // The remembered score, which becomes the most recently used; nullopt if unknown.
  std::optional<BatchScore> Get(const std::string& dataset, const std::string& hash);
  size_t size() const;

 private:
  using Entry = std::pair<std::string, BatchScore>;  // key, score
  size_t capacity_;
  mutable std::mutex mutex_;
  std::list<Entry> order_;  // most recent first
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
};

// Whether `hash` is an acceptable batch_hash: 1 to 128 characters of
// [A-Za-z0-9._:-] (a hex digest, a uuid, "epoch3/step9" is not).
bool IsValidBatchHash(const std::string& hash);

}  // namespace griffin::server
