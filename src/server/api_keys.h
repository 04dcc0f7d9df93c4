// API keys: a presented bearer token is hashed (SHA-256) and compared, in
// constant time, with every configured key's stored hash; the token itself is
// never stored. Immutable after construction, so safe on any thread.
//
//   KeyRing ring(config.keys);
//   const ApiKey* key = ring.Find(BearerToken(header).value_or(""));
//   if (key == nullptr) -> 401;  if (!KeyAllows(*key, dataset)) -> 403
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/service_config.h"

namespace griffin::server {

class KeyRing {
 public:
  explicit KeyRing(std::vector<ApiKey> keys) : keys_(std::move(keys)) {}
  // The key whose hash is sha256(token), or nullptr. Every key is compared
  // (CRYPTO_memcmp), so the time does not depend on where a match is.
  const ApiKey* Find(std::string_view token) const;
  bool empty() const { return keys_.empty(); }

 private:
  std::vector<ApiKey> keys_;
};

// Whether `key` may use `dataset` (a key without a dataset list may use all).
bool KeyAllows(const ApiKey& key, const std::string& dataset);

// The token of an "Authorization: Bearer TOKEN" header value (scheme
// case-insensitive, surrounding spaces ignored); nullopt for anything else.
std::optional<std::string_view> BearerToken(std::string_view authorization);

}  // namespace griffin::server
