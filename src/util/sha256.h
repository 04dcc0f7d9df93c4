// SHA-256 (FIPS 180-4, OpenSSL libcrypto), used to fingerprint rule files (the report's
// `rules_sha256`) and output files (lineage).
//
//   std::string hex = Sha256Hex(rule_text);  // 64 lower-case hex digits
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace griffin {

// The 32-byte digest of `data`.
std::array<uint8_t, 32> Sha256(std::string_view data);

// The digest of `data` as 64 lower-case hex digits.
std::string Sha256Hex(std::string_view data);

}  // namespace griffin
