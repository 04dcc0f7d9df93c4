#include "io/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace griffin {
namespace {

TEST(Utf8Test, FindsTheFirstInvalidByte) {
  constexpr size_t kValid = std::string_view::npos;
  EXPECT_EQ(FindInvalidUtf8("plain ascii"), kValid);
  EXPECT_EQ(FindInvalidUtf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"), kValid);
  EXPECT_EQ(FindInvalidUtf8("ab\xFF"), 2u);
  EXPECT_EQ(FindInvalidUtf8("a\xC3"), 1u);             // cut short
  EXPECT_EQ(FindInvalidUtf8("\xC0\xAF"), 0u);          // overlong
  EXPECT_EQ(FindInvalidUtf8("x\xE0\x80\xAF"), 1u);     // overlong
  EXPECT_EQ(FindInvalidUtf8("xy\xED\xA0\x80"), 2u);    // surrogate
  EXPECT_EQ(FindInvalidUtf8("\xF4\x90\x80\x80"), 0u);  // above U+10FFFF
  EXPECT_EQ(FindInvalidUtf8("\xE2\x82x"), 0u);         // bad continuation
  EXPECT_TRUE(IsValidUtf8("caf\xC3\xA9"));
  EXPECT_FALSE(IsValidUtf8("ab\xFF"));
}

TEST(Utf8Test, IsAsciiLooksAtEveryByte) {
  EXPECT_TRUE(IsAscii(""));
  EXPECT_TRUE(IsAscii("plain ascii \x7F"));
  std::string long_text(10000, 'a');
  EXPECT_TRUE(IsAscii(long_text));
  for (size_t at : {size_t{0}, size_t{4095}, size_t{4096}, size_t{9999}}) {
    std::string text = long_text;
    text[at] = '\x80';
    EXPECT_FALSE(IsAscii(text)) << at;
  }
  EXPECT_FALSE(IsAscii("caf\xC3\xA9"));
}

}  // namespace
}  // namespace griffin
