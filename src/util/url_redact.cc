#include "util/url_redact.h"

namespace griffin {

std::string RedactSecretUrl(std::string_view url) {
  const size_t scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return "(not a URL)";
  const size_t authority = scheme_end + 3;
  const size_t authority_end = std::min(url.find_first_of("/?#", authority), url.size());
  std::string_view host = url.substr(authority, authority_end - authority);
  if (const size_t at = host.rfind('@'); at != std::string_view::npos) host = host.substr(at + 1);
  std::string out = std::string(url.substr(0, authority)) + std::string(host);
  const size_t path_end = std::min(url.find_first_of("?#", authority_end), url.size());
  std::string_view path = url.substr(authority_end, path_end - authority_end);
  if (!path.empty()) {
    const size_t second = path.find('/', 1);
    if (second == std::string_view::npos || second + 1 == path.size()) out += path;
    else out += std::string(path.substr(0, second + 1)) + "…";
  }
  if (path_end < url.size()) out += url[path_end] == '?' ? "?…" : "#…";
  return out;
}

}  // namespace griffin
