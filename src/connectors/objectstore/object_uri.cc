#include "connectors/objectstore/object_uri.h"

#include <cctype>

namespace griffin {
namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Query values may be percent-encoded ("http%3A%2F%2Fhost%3A9000").
std::string PercentDecode(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      int high = HexValue(text[i + 1]), low = HexValue(text[i + 2]);
      if (high >= 0 && low >= 0) {
        out += static_cast<char>(high * 16 + low);
        i += 2;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

}  // namespace

std::string ObjectUri::Sibling(const std::string& other_key) const {
  std::string uri = scheme + "://" + bucket + "/" + other_key;
  std::string query;
  if (!endpoint.empty()) query += "endpoint=" + endpoint;
  if (!region.empty()) query += std::string(query.empty() ? "" : "&") + "region=" + region;
  return query.empty() ? uri : uri + "?" + query;
}

bool IsObjectStoreUri(std::string_view text) {
  const std::string head = Lower(text.substr(0, 5));
  return head == "s3://" || head == "gs://";
}

Result<ObjectUri> ParseObjectUri(std::string_view text) {
  const std::string whole(text);
  if (!IsObjectStoreUri(text))
    return Status::UsageError(whole + ": not an object store URI (expected s3://bucket/key or gs://bucket/key)");
  ObjectUri uri;
  uri.scheme = Lower(text.substr(0, 2));
  std::string_view rest = text.substr(5);
  std::string_view query;
  if (size_t mark = rest.find('?'); mark != std::string_view::npos) {
    query = rest.substr(mark + 1);
    rest = rest.substr(0, mark);
  }
  const size_t slash = rest.find('/');
  uri.bucket = std::string(rest.substr(0, slash));
  if (slash != std::string_view::npos) uri.key = std::string(rest.substr(slash + 1));
  if (uri.bucket.empty()) return Status::UsageError(whole + ": the URI names no bucket (expected " + uri.scheme + "://bucket/key)");
  while (!query.empty()) {
    const size_t amp = query.find('&');
    std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.empty()) continue;
    const size_t eq = pair.find('=');
    const std::string name(pair.substr(0, eq));
    const std::string value = eq == std::string_view::npos ? "" : PercentDecode(pair.substr(eq + 1));
    if (name == "endpoint") uri.endpoint = value;
    else if (name == "region") uri.region = value;
    else
      return Status::UsageError(whole + ": unknown URI parameter '" + name + "' (known: endpoint, region)");
  }
  return uri;
}

Result<Endpoint> ParseEndpoint(std::string_view endpoint, std::string_view uri_for_errors) {
  Endpoint out;
  std::string_view rest = endpoint;
  if (size_t sep = rest.find("://"); sep != std::string_view::npos) {
    out.scheme = Lower(rest.substr(0, sep));
    rest = rest.substr(sep + 3);
  } else {
    out.scheme = "https";
  }
  while (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  if ((out.scheme != "http" && out.scheme != "https") || rest.empty() || rest.find('/') != std::string_view::npos)
    return Status::UsageError(std::string(uri_for_errors) + ": endpoint '" + std::string(endpoint) +
                              "' is not http(s)://host[:port]");
  out.host_port = std::string(rest);
  return out;
}

}  // namespace griffin
