// A webhook URL as logs, messages and the run store may show it: webhook
// URLs carry their secret in the userinfo, the query string or the path
// (Slack's https://hooks.slack.com/services/T0/B0/SECRET), so only the
// scheme, host, port and first path segment are kept.
//
//   RedactSecretUrl("https://u:pw@hooks.slack.com/services/T0/B0/XYZ?token=1")
//     == "https://hooks.slack.com/services/…?…"
#pragma once

#include <string>
#include <string_view>

namespace griffin {

std::string RedactSecretUrl(std::string_view url);

}  // namespace griffin
