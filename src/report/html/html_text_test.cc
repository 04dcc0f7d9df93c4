#include "report/html/html_text.h"

#include <cmath>

#include <gtest/gtest.h>

namespace griffin {
namespace {

TEST(HtmlEscapeTest, MarkupBecomesText) {
  EXPECT_EQ(HtmlEscape("<script>alert('x')</script>"), "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
  EXPECT_EQ(HtmlEscape("a & \"b\""), "a &amp; &quot;b&quot;");
  EXPECT_EQ(HtmlEscape("plain"), "plain");
}

TEST(HtmlEscapeTest, ControlCharactersAndBadUtf8) {
  EXPECT_EQ(HtmlEscape(std::string("a\0b\x01\tc\n", 7)), "a b \tc\n");
  EXPECT_EQ(HtmlEscape("caf\xC3\xA9"), "caf\xC3\xA9");          // valid é kept
  EXPECT_EQ(HtmlEscape("x\xFFy"), "x\xEF\xBF\xBDy");              // stray byte
  EXPECT_EQ(HtmlEscape("\xC3"), "\xEF\xBF\xBD");                  // cut sequence
  EXPECT_EQ(HtmlEscape("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
  EXPECT_EQ(HtmlEscape("\xF0\x9F\x98\x80"), "\xF0\x9F\x98\x80");  // an emoji
}

TEST(FormatNumberTest, People) {
  EXPECT_EQ(FormatNumber(12), "12");
  EXPECT_EQ(FormatNumber(12.5), "12.5");
  EXPECT_EQ(FormatNumber(0.00123456), "0.001235");
  EXPECT_EQ(FormatNumber(std::nan("")), "nan");
  EXPECT_EQ(FormatNumber(-INFINITY), "-inf");
  EXPECT_EQ(FormatPercent(0.995), "99.5%");
}

}  // namespace
}  // namespace griffin
