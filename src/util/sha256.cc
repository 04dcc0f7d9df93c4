// SHA-256 through OpenSSL's libcrypto, which uses the CPU's SHA extensions
// where present (GB/s): fast enough to fingerprint whole output files.
#include "util/sha256.h"

#include <openssl/evp.h>
#include <openssl/sha.h>

namespace griffin {
namespace {

std::string ToHex(const unsigned char* digest, size_t size) {
  static const char* kHex = "0123456789abcdef";
  std::string hex;
  hex.reserve(size * 2);
  for (size_t i = 0; i < size; ++i) {
    hex.push_back(kHex[digest[i] >> 4]);
    hex.push_back(kHex[digest[i] & 15]);
  }
  return hex;
}

}  // namespace

struct Sha256Stream::State {
  EVP_MD_CTX* context = EVP_MD_CTX_new();
};

Sha256Stream::Sha256Stream() : state_(new State) { EVP_DigestInit_ex(state_->context, EVP_sha256(), nullptr); }

Sha256Stream::~Sha256Stream() {
  EVP_MD_CTX_free(state_->context);
  delete state_;
}

void Sha256Stream::Update(std::string_view data) { EVP_DigestUpdate(state_->context, data.data(), data.size()); }

std::string Sha256Stream::FinishHex() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_DigestFinal_ex(state_->context, digest, &size);
  return ToHex(digest, size);
}

std::array<uint8_t, 32> Sha256(std::string_view data) {
  std::array<uint8_t, 32> digest{};
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest.data());
  return digest;
}

std::string Sha256Hex(std::string_view data) {
  const std::array<uint8_t, 32> digest = Sha256(data);
  return ToHex(digest.data(), digest.size());
}

}  // namespace griffin
