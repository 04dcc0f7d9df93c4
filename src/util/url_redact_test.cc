#include "util/url_redact.h"

#include <gtest/gtest.h>

namespace griffin {
namespace {

TEST(RedactSecretUrl, KeepsOnlySchemeHostPortAndFirstSegment) {
  EXPECT_EQ(RedactSecretUrl("https://u:pw@hooks.slack.com/services/T0/B0/XYZ?token=1"),
            "https://hooks.slack.com/services/…?…");
  EXPECT_EQ(RedactSecretUrl("http://127.0.0.1:8080/hook"), "http://127.0.0.1:8080/hook");
  EXPECT_EQ(RedactSecretUrl("http://127.0.0.1:8080/hook/"), "http://127.0.0.1:8080/hook/");
  EXPECT_EQ(RedactSecretUrl("http://127.0.0.1:8080/hook?key=s3cret"), "http://127.0.0.1:8080/hook?…");
  EXPECT_EQ(RedactSecretUrl("http://token@example.com"), "http://example.com");
  EXPECT_EQ(RedactSecretUrl("http://example.com#frag"), "http://example.com#…");
  EXPECT_EQ(RedactSecretUrl("example.com/x"), "(not a URL)");
  for (const char* url : {"https://a:SECRET@h/p", "https://h/p/SECRET", "https://h/p?x=SECRET", "https://h/p#SECRET"})
    EXPECT_EQ(RedactSecretUrl(url).find("SECRET"), std::string::npos) << url;
}

}  // namespace
}  // namespace griffin
