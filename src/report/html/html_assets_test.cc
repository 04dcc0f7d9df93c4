#include "report/html/html_assets.h"

#include <gtest/gtest.h>

namespace griffin {
namespace {

TEST(HtmlAssetsTest, PolicyPinsTheScriptAndBlocksTheNetwork) {
  const std::string& policy = HtmlContentSecurityPolicy();
  EXPECT_EQ(policy.rfind("default-src 'none';", 0), 0u);
  // sha256 is 32 bytes: 44 base64 characters with one '=' of padding.
  const size_t at = policy.find("script-src 'sha256-");
  ASSERT_NE(at, std::string::npos);
  const size_t start = at + std::string("script-src 'sha256-").size();
  const size_t end = policy.find('\'', start);
  EXPECT_EQ(end - start, 44u);
  EXPECT_EQ(policy[end - 1], '=');
  EXPECT_NE(policy.find("style-src 'unsafe-inline'"), std::string::npos);
  EXPECT_EQ(policy.find("script-src 'unsafe-inline'"), std::string::npos);
}

TEST(HtmlAssetsTest, ScriptNeverEndsItsElement) {
  // The script is written inside <script>...</script>: it must not contain the closing tag.
  EXPECT_EQ(HtmlPageScript().find("</"), std::string::npos);
  EXPECT_EQ(HtmlPageStyle().find("</"), std::string::npos);
}

}  // namespace
}  // namespace griffin
