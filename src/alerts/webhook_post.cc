#include "alerts/webhook_post.h"

#include <curl/curl.h>

#include <mutex>

namespace griffin {
namespace {

size_t Discard(char*, size_t size, size_t count, void*) { return size * count; }

void InitCurlOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

}  // namespace

WebhookAnswer PostJson(const std::string& url, const std::string& body, double timeout_s) {
  InitCurlOnce();
  WebhookAnswer answer;
  CURL* curl = curl_easy_init();
  if (curl == nullptr) {
    answer.error = "libcurl could not start a request";
    return answer;
  }
  curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
  headers = curl_slist_append(headers, "User-Agent: griffin/" GRIFFIN_VERSION);
  const long timeout_ms = static_cast<long>(timeout_s * 1000);
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.data());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, Discard);
  const CURLcode code = curl_easy_perform(curl);
  if (code == CURLE_OK) {
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    answer.http_status = static_cast<int>(status);
    if (!answer.ok()) answer.error = "HTTP " + std::to_string(status);
  } else if (code == CURLE_OPERATION_TIMEDOUT) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", timeout_s);
    answer.error = std::string("timed out after ") + seconds + " s";
  } else {
    // curl_easy_strerror names the failure, never the URL.
    answer.error = curl_easy_strerror(code);
  }
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return answer;
}

}  // namespace griffin
