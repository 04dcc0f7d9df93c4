#include "util/text_cut.h"

#include <gtest/gtest.h>

namespace griffin {
namespace {

TEST(TextCutTest, ShortTextIsKeptWhole) {
  EXPECT_EQ(CutText("short", 8), "short");
  EXPECT_EQ(CutText("exactly8", 8), "exactly8");
  EXPECT_EQ(CutText("", 0), "");
}

TEST(TextCutTest, LongTextKeepsItsPrefixThenEllipsisAndFullLength) {
  const std::string long_text(5000, 'a');
  const std::string cut = CutText(long_text, 1024);
  EXPECT_EQ(cut, std::string(1024, 'a') + "\xE2\x80\xA6(5000 bytes)");
  EXPECT_TRUE(IsCut(long_text, 1024));
  EXPECT_FALSE(IsCut(std::string(1024, 'a'), 1024));
}

TEST(TextCutTest, NeverSplitsAUtf8Character) {
  // "é" is two bytes (C3 A9), "€" three (E2 82 AC), "😀" four (F0 9F 98 80).
  EXPECT_EQ(CutText("ab\xC3\xA9z", 3), "ab\xE2\x80\xA6(5 bytes)");
  EXPECT_EQ(CutText("a\xE2\x82\xAC" "bc", 3), "a\xE2\x80\xA6(6 bytes)");
  EXPECT_EQ(CutText("\xF0\x9F\x98\x80\xF0\x9F\x98\x80", 6), "\xF0\x9F\x98\x80\xE2\x80\xA6(8 bytes)");
  // Invalid UTF-8 (continuation bytes only) backs off at most 3 bytes.
  EXPECT_EQ(CutText(std::string(10, '\x80'), 8), std::string(5, '\x80') + "\xE2\x80\xA6(10 bytes)");
}

TEST(TextCutTest, AppendAddsToWhatIsThere) {
  std::string out = "x=";
  AppendCutText(&out, "0123456789", 4);
  EXPECT_EQ(out, "x=0123\xE2\x80\xA6(10 bytes)");
}

TEST(TextCutTest, APrefixIsShownAsTheWholeValueWouldBe) {
  const std::string value = "ab\xC3\xA9" + std::string(100, 'z');
  EXPECT_EQ(CutPrefix(value.substr(0, 4), value.size(), 3), CutText(value, 3));
  EXPECT_EQ(CutPrefix("abc", 3, 8), "abc");
}

TEST(TextCutTest, ThousandsSeparators) {
  EXPECT_EQ(WithThousands(0), "0");
  EXPECT_EQ(WithThousands(999), "999");
  EXPECT_EQ(WithThousands(1000), "1,000");
  EXPECT_EQ(WithThousands(100000), "100,000");
  EXPECT_EQ(WithThousands(1234567), "1,234,567");
  EXPECT_EQ(WithThousands(-1234), "-1,234");
}

}  // namespace
}  // namespace griffin
