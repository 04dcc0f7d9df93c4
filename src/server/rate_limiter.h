// Token buckets, one per API key id: a key may make `burst` requests at once
// and `per_second` on average. Thread-safe. Memory: one bucket per key id
// seen (key ids come from the config file, so this is bounded).
//
//   double wait = limiter.Acquire(key.id, rate, Clock::now());
//   if (wait > 0) -> 429 with Retry-After: ceil(wait)
#pragma once

#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>

#include "server/service_config.h"

namespace griffin::server {

class RateLimiter {
 public:
  using Clock = std::chrono::steady_clock;

  // Takes one token from `key_id`'s bucket (created full). Returns 0 when a
  // token was taken, else the seconds until one will be there (nothing taken).
  double Acquire(const std::string& key_id, const RateLimit& limit, Clock::time_point now);

 private:
  struct Bucket {
    double tokens = 0;
    Clock::time_point updated;
  };
  std::mutex mutex_;
  std::unordered_map<std::string, Bucket> buckets_;
};

}  // namespace griffin::server
