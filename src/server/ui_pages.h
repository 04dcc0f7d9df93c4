// `griffin serve`'s web pages under /ui/ (docs/service.md), behind the same
// API keys as the API: the index of the caller's datasets with their recent
// runs, and each run's page (report/html: verdict, checks, violations, score
// trend...). Both are HTML answers; a denial is answered as the API answers.
//
//   ServiceResult<std::string> page = UiRunPage(core, caller, run_id);
#pragma once

#include <string>
#include <string_view>

#include "server/service_core.h"

namespace griffin::server {

// A browser cannot send "Authorization: Bearer KEY" by itself, so a page
// also takes the key as the password of Basic credentials (any user name):
// UiAuthorization turns "Basic base64(user:KEY)" into "Bearer KEY" and leaves
// any other value as it is; a page's 401 carries kUiBasicChallenge besides
// the API's Bearer challenge, so the browser asks for them.
std::string UiAuthorization(std::string_view authorization);
inline constexpr const char* kUiBasicChallenge = "Basic realm=\"griffin\", charset=\"UTF-8\"";

// How many runs of each dataset the index lists.
inline constexpr int kUiIndexRuns = 20;

// The datasets the caller may use (all when auth is off), each with its last
// kUiIndexRuns runs from the store (a note instead with --no-store).
ServiceResult<std::string> UiIndexPage(ServiceCore& core, const Caller& caller);

// A finished run's page. kNotFound when no finished run has this id or when
// its dataset is not one the caller may use (a key cannot probe for runs of
// other datasets); kNotFound also without a store.
ServiceResult<std::string> UiRunPage(ServiceCore& core, const Caller& caller, const std::string& run_id);

}  // namespace griffin::server
