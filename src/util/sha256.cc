// SHA-256 through OpenSSL's libcrypto, which uses the CPU's SHA extensions
// where present (GB/s): fast enough to fingerprint whole output files.
#include "util/sha256.h"

#include <openssl/sha.h>

namespace griffin {

std::array<uint8_t, 32> Sha256(std::string_view data) {
  std::array<uint8_t, 32> digest{};
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest.data());
  return digest;
}

std::string Sha256Hex(std::string_view data) {
  static const char* kHex = "0123456789abcdef";
  std::string hex;
  hex.reserve(64);
  for (uint8_t byte : Sha256(data)) {
    hex.push_back(kHex[byte >> 4]);
    hex.push_back(kHex[byte & 15]);
  }
  return hex;
}

}  // namespace griffin
