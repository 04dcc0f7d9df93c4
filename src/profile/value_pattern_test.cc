#include "profile/value_pattern.h"

#include <gtest/gtest.h>
#include <re2/re2.h>

namespace griffin {
namespace {

TEST(ValuePatternTest, ClassesPerCharacter) {
  EXPECT_EQ(ValuePattern("AB1234"), "AA9999");
  EXPECT_EQ(ValuePattern("a.b@x.org"), "a.a@a.aaa");
  EXPECT_EQ(ValuePattern("Zürich 8"), "A*aaaa 9");
  EXPECT_EQ(ValuePattern(std::string(50, 'x')), std::string(kMaxPatternChars, 'a') + "...");
  EXPECT_EQ(ValuePattern(""), "");
}

TEST(ValuePatternTest, FormatsAgreeWithTheirRegexes) {
  const char* samples[] = {"a@b.co", "a@b", "@b.co", "a b@c.de", "http://x", "https://", "ftp://x",
                           "123e4567-e89b-12d3-a456-426614174000", "123e4567-e89b-12d3-a456-42661417400",
                           "10.0.0.255", "256.1.1.1", "01.2.3.4", "1.2.3", "hello"};
  for (const char* sample : samples) {
    const ValueFormat format = ClassifyValue(sample);
    for (int f = 1; f < kValueFormats; ++f) {
      RE2 regex(FormatRegex(static_cast<ValueFormat>(f)));
      ASSERT_TRUE(regex.ok());
      const bool matches = RE2::FullMatch(sample, regex);
      if (format == static_cast<ValueFormat>(f)) EXPECT_TRUE(matches) << sample;
      else if (format != ValueFormat::kNone) continue;  // classes are tried in order; one wins
      else EXPECT_FALSE(matches) << sample << " " << ValueFormatName(static_cast<ValueFormat>(f));
    }
  }
  EXPECT_EQ(ClassifyValue("a@b.co"), ValueFormat::kEmail);
  EXPECT_EQ(ClassifyValue("10.0.0.255"), ValueFormat::kIpv4);
}

TEST(ValuePatternTest, PatternRegexAcceptsItsValues) {
  const auto regex = PatternRegex(ValuePattern("TX-0012.a+"));
  ASSERT_TRUE(regex.has_value());
  EXPECT_EQ(*regex, "^[A-Z]{2}-[0-9]{4}\\.[a-z]\\+$");
  EXPECT_TRUE(RE2::FullMatch("AB-9999.z+", *regex));
  EXPECT_FALSE(RE2::FullMatch("AB-999.z+", *regex));
  EXPECT_FALSE(PatternRegex(ValuePattern("Zürich")).has_value());
  EXPECT_FALSE(PatternRegex(ValuePattern(std::string(50, 'x'))).has_value());
}

// Every byte, alone and after a multi-byte character, against the rule
// spelled out: letters and digits by class, a UTF-8 character '*', others kept.
TEST(ValuePatternTest, EveryByteGetsItsClass) {
  for (int c = 0; c < 256; ++c) {
    const std::string text(1, static_cast<char>(c));
    std::string want;
    if (c >= 'A' && c <= 'Z') want = "A";
    else if (c >= 'a' && c <= 'z') want = "a";
    else if (c >= '0' && c <= '9') want = "9";
    else if ((c & 0xC0) == 0x80) want = "";  // a lone continuation byte is no character
    else if (c >= 0x80) want = "*";
    else want = text;
    EXPECT_EQ(ValuePattern(text), want) << c;
    EXPECT_EQ(ValuePattern("\xc3\xa9" + text + "x"), "*" + want + "a") << c;
  }
}

}  // namespace
}  // namespace griffin
