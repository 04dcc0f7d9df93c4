#include "server/http_routes.h"

#include <string_view>

namespace griffin::server {

bool IsValidatePath(const std::string& path) {
  constexpr std::string_view kPrefix = "/v1/datasets/", kSuffix = "/validate";
  if (path.size() <= kPrefix.size() + kSuffix.size() || path.rfind(kPrefix, 0) != 0 ||
      path.compare(path.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0)
    return false;
  const std::string_view segment =
      std::string_view(path).substr(kPrefix.size(), path.size() - kPrefix.size() - kSuffix.size());
  return segment.find('/') == std::string_view::npos && segment != "." && segment != "..";
}

std::string RouteOf(const std::string& method, const std::string& path) {
  if (path == "/healthz") return "healthz";
  if (path == "/metrics") return method == "POST" ? "score" : "prometheus";
  if (path == "/v1/datasets") return "datasets";
  if (path == "/v1/runs") return "runs";
  if (IsValidatePath(path)) return "validate";
  if (path.rfind("/ui/", 0) == 0) return "ui";
  return "other";
}

const char* AllowedMethods(const std::string& route) {
  if (route == "validate") return "POST";
  if (route == "prometheus" || route == "score" || route == "other") return "GET, POST";  // other: what some route takes
  return "GET";
}

}  // namespace griffin::server
