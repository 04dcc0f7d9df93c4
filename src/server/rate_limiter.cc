#include "server/rate_limiter.h"

#include <algorithm>

namespace griffin::server {

double RateLimiter::Acquire(const std::string& key_id, const RateLimit& limit, Clock::time_point now) {
  if (limit.per_second <= 0) return 0;  // unlimited
  std::lock_guard<std::mutex> lock(mutex_);
  auto [it, created] = buckets_.try_emplace(key_id, Bucket{limit.burst, now});
  Bucket& bucket = it->second;
  if (!created) {
    const double elapsed = std::chrono::duration<double>(now - bucket.updated).count();
    if (elapsed > 0) bucket.tokens = std::min(limit.burst, bucket.tokens + elapsed * limit.per_second);
    bucket.updated = std::max(bucket.updated, now);
  }
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    return 0;
  }
  return (1 - bucket.tokens) / limit.per_second;
}

}  // namespace griffin::server
