#include "server/http_framing.h"

namespace griffin::server {
namespace {

// At most 18 digits: any such number fits int64 (bodies are far smaller).
bool IsPlainLength(const std::string& value) {
  if (value.empty() || value.size() > 18) return false;
  for (char c : value) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace

std::optional<std::string> FramingError(const httplib::Headers& headers) {
  const auto [length_begin, length_end] = headers.equal_range("Content-Length");
  const auto [encoding_begin, encoding_end] = headers.equal_range("Transfer-Encoding");
  std::optional<std::string> length;
  for (auto it = length_begin; it != length_end; ++it) {
    if (!IsPlainLength(it->second)) return "Content-Length: expected a whole number of bytes, not '" + it->second + "'";
    if (length && *length != it->second) return "two different Content-Length headers (" + *length + ", " + it->second + ")";
    length = it->second;
  }
  if (encoding_begin == encoding_end) return std::nullopt;
  if (std::next(encoding_begin) != encoding_end) return std::string("Transfer-Encoding given twice");
  if (encoding_begin->second != "chunked") {
    return "Transfer-Encoding: only 'chunked' is accepted, not '" + encoding_begin->second + "'";
  }
  if (length) return std::string("both Transfer-Encoding and Content-Length given");
  return std::nullopt;
}

bool IsForbiddenMethod(const std::string& method) { return method == "TRACE" || method == "CONNECT"; }

void NoLengthMeansEmpty(httplib::Request& req) {
  const bool takes_body = req.method == "POST" || req.method == "PUT" || req.method == "PATCH" || req.method == "PRI";
  if (takes_body && !req.has_header("Content-Length") && !req.has_header("Transfer-Encoding")) {
    req.set_header("Content-Length", "0");
  }
}

}  // namespace griffin::server
