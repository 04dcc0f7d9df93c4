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

// Incremental SHA-256 for data that arrives in pieces (output files as they
// are written). Not thread-safe.
class Sha256Stream {
 public:
  Sha256Stream();
  ~Sha256Stream();
  Sha256Stream(const Sha256Stream&) = delete;
  Sha256Stream& operator=(const Sha256Stream&) = delete;
  void Update(std::string_view data);
  // The hex digest of everything passed to Update; call once.
  std::string FinishHex();

 private:
  struct State;
  State* state_;
};

}  // namespace griffin
