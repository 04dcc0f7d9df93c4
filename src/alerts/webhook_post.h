// One HTTP POST of a JSON body to a webhook, over libcurl, bounded by a
// timeout (connect + send + answer). Thread-safe (no signals; libcurl's
// global state is set up once).
//
//   WebhookAnswer answer = PostJson(url, "{\"text\": \"hi\"}", 5.0);
//   if (answer.http_status == 200) ...
//
// Messages never hold the URL: the caller names it, redacted.
#pragma once

#include <string>

namespace griffin {

struct WebhookAnswer {
  int http_status = 0;   // 0: no answer (error says why)
  std::string error;     // "connection refused", "timed out after 5 s", "HTTP 503"
  bool ok() const { return http_status >= 200 && http_status < 300; }
  // Worth another attempt: no answer, 408, 429 or 5xx.
  bool retryable() const {
    return http_status == 0 || http_status == 408 || http_status == 429 || http_status >= 500;
  }
};

WebhookAnswer PostJson(const std::string& url, const std::string& body, double timeout_s);

}  // namespace griffin
