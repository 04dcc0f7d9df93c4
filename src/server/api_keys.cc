#include "server/api_keys.h"

#include <openssl/crypto.h>

#include <algorithm>
#include <cctype>

#include "util/sha256.h"

namespace griffin::server {

const ApiKey* KeyRing::Find(std::string_view token) const {
  if (token.empty()) return nullptr;
  const std::array<uint8_t, 32> digest = Sha256(token);
  const ApiKey* found = nullptr;
  for (const ApiKey& key : keys_) {
    const bool equal = CRYPTO_memcmp(digest.data(), key.digest.data(), digest.size()) == 0;
    if (equal && found == nullptr) found = &key;
  }
  return found;
}

bool KeyAllows(const ApiKey& key, const std::string& dataset) {
  if (!key.datasets) return true;
  return std::find(key.datasets->begin(), key.datasets->end(), dataset) != key.datasets->end();
}

std::optional<std::string_view> BearerToken(std::string_view authorization) {
  auto trim = [](std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
  };
  authorization = trim(authorization);
  constexpr std::string_view kScheme = "bearer";
  if (authorization.size() <= kScheme.size() || authorization[kScheme.size()] != ' ') return std::nullopt;
  for (size_t i = 0; i < kScheme.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(authorization[i])) != kScheme[i]) return std::nullopt;
  }
  std::string_view token = trim(authorization.substr(kScheme.size() + 1));
  if (token.empty()) return std::nullopt;
  return token;
}

}  // namespace griffin::server
