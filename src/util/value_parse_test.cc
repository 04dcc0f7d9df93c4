#include "util/value_parse.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace griffin {
namespace {

TEST(ParseInt64, AcceptsSignsDigitsAndBlanks) {
  EXPECT_EQ(ParseInt64("0"), 0);
  EXPECT_EQ(ParseInt64("42"), 42);
  EXPECT_EQ(ParseInt64("+42"), 42);
  EXPECT_EQ(ParseInt64("-42"), -42);
  EXPECT_EQ(ParseInt64(" \t 17\t "), 17);
  EXPECT_EQ(ParseInt64("007"), 7);
}

TEST(ParseInt64, ChecksTheRangeExactly) {
  EXPECT_EQ(ParseInt64("9223372036854775807"), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(ParseInt64("-9223372036854775808"), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(ParseInt64("9223372036854775808"), std::nullopt);
  EXPECT_EQ(ParseInt64("-9223372036854775809"), std::nullopt);
  EXPECT_EQ(ParseInt64("99999999999999999999999"), std::nullopt);
}

TEST(ParseInt64, RejectsEverythingElse) {
  for (const char* text : {"", " ", "+", "-", "+-1", "--1", "1.0", "1e3", "0x10", "1 2", "1_000",
                           "abc", "12a", "١"}) {
    EXPECT_EQ(ParseInt64(text), std::nullopt) << text;
  }
}

TEST(ParseFloat64, ParsesDecimalAndScientific) {
  EXPECT_EQ(ParseFloat64("1.5"), 1.5);
  EXPECT_EQ(ParseFloat64("-1.5"), -1.5);
  EXPECT_EQ(ParseFloat64("+2"), 2.0);
  EXPECT_EQ(ParseFloat64(".5"), 0.5);
  EXPECT_EQ(ParseFloat64("5."), 5.0);
  EXPECT_EQ(ParseFloat64("1.5e3"), 1500.0);
  EXPECT_EQ(ParseFloat64("1E-2"), 0.01);
  EXPECT_EQ(ParseFloat64("  0.1\t"), 0.1);
  EXPECT_EQ(ParseFloat64("0.30000000000000004"), 0.30000000000000004);
  EXPECT_TRUE(std::signbit(*ParseFloat64("-0")));
}

TEST(ParseFloat64, SpecialValuesInAnyCase) {
  for (const char* text : {"nan", "NaN", "NAN", "-nan", " nan "}) {
    ASSERT_TRUE(ParseFloat64(text).has_value()) << text;
    EXPECT_TRUE(std::isnan(*ParseFloat64(text))) << text;
  }
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(ParseFloat64("inf"), inf);
  EXPECT_EQ(ParseFloat64("Inf"), inf);
  EXPECT_EQ(ParseFloat64("+INF"), inf);
  EXPECT_EQ(ParseFloat64("infinity"), inf);
  EXPECT_EQ(ParseFloat64("Infinity"), inf);
  EXPECT_EQ(ParseFloat64("-inf"), -inf);
  EXPECT_EQ(ParseFloat64("-Infinity"), -inf);
}

TEST(ParseFloat64, OutOfRangeRoundsToInfinityOrZero) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(ParseFloat64("1e400"), inf);
  EXPECT_EQ(ParseFloat64("-1e400"), -inf);
  EXPECT_EQ(ParseFloat64("123456.7e305"), inf);
  EXPECT_EQ(ParseFloat64("1e-400"), 0.0);
  EXPECT_EQ(ParseFloat64("0.000001e-400"), 0.0);
  EXPECT_EQ(ParseFloat64("4.9e-324"), 4.9e-324);  // smallest subnormal still parses
}

TEST(ParseFloat64, RejectsHexSeparatorsAndJunk) {
  for (const char* text : {"", " ", ".", "-", "+", "e5", "1e", "1e+", "0x1p3", "0x10", "1_000",
                           "1,5", "1.2.3", "--1", "+-1", "nan(1)", "in", "infinit", "1 2",
                           "inf inity", "1.5f"}) {
    EXPECT_EQ(ParseFloat64(text), std::nullopt) << text;
  }
}

TEST(FormatDoubleBrief, SixSignificantDigitsForPeople) {
  EXPECT_EQ(FormatDoubleBrief(0.0035545023696682463), "0.0035545");
  EXPECT_EQ(FormatDoubleBrief(12.5), "12.5");
  EXPECT_EQ(FormatDoubleBrief(-0.1), "-0.1");
  EXPECT_EQ(FormatDoubleBrief(3), "3");
  EXPECT_EQ(FormatDoubleBrief(123456.789), "123457");
  EXPECT_EQ(FormatDoubleBrief(1234567.8), "1234568");
  EXPECT_EQ(FormatDoubleBrief(1.5e-7), "1.5e-07");
  EXPECT_EQ(FormatDoubleBrief(2e20), "2e+20");
  EXPECT_EQ(FormatDoubleBrief(std::nan("")), "nan");
  EXPECT_EQ(FormatDoubleBrief(-std::numeric_limits<double>::infinity()), "-inf");
}

TEST(IntegralInt64, IntegralValuesWithinRange) {
  EXPECT_EQ(IntegralInt64(987555.0), 987555);
  EXPECT_EQ(IntegralInt64(-3.0), -3);
  EXPECT_EQ(IntegralInt64(-0.0), 0);
  EXPECT_EQ(IntegralInt64(-9223372036854775808.0), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(IntegralInt64(9223372036854774784.0), 9223372036854774784);  // largest double below 2^63
}

TEST(IntegralInt64, RejectsFractionsNonFiniteAndOutOfRange) {
  EXPECT_EQ(IntegralInt64(987555.5), std::nullopt);
  EXPECT_EQ(IntegralInt64(1e-300), std::nullopt);
  EXPECT_EQ(IntegralInt64(9223372036854775808.0), std::nullopt);  // 2^63
  EXPECT_EQ(IntegralInt64(1e300), std::nullopt);
  EXPECT_EQ(IntegralInt64(std::nan("")), std::nullopt);
  EXPECT_EQ(IntegralInt64(std::numeric_limits<double>::infinity()), std::nullopt);
  EXPECT_EQ(IntegralInt64(-std::numeric_limits<double>::infinity()), std::nullopt);
}

TEST(ParseBool, AcceptsTheSpecSpellings) {
  for (const char* text : {"true", "TRUE", "True", "t", "T", "yes", "YES", "Yes", "1", " true "}) {
    EXPECT_EQ(ParseBool(text), 1) << text;
  }
  for (const char* text : {"false", "FALSE", "f", "F", "no", "No", "NO", "0", "\tno\t"}) {
    EXPECT_EQ(ParseBool(text), 0) << text;
  }
  for (const char* text : {"", "2", "y", "n", "on", "off", "truee", "fals", "01", "-1"}) {
    EXPECT_EQ(ParseBool(text), std::nullopt) << text;
  }
}

TEST(FormatDouble, ShortestRoundTrip) {
  EXPECT_EQ(FormatDouble(0.1), "0.1");
  EXPECT_EQ(FormatDouble(5.0), "5");
  EXPECT_EQ(FormatDouble(-5.25), "-5.25");
  EXPECT_EQ(FormatDouble(1e21), "1e+21");
  EXPECT_EQ(FormatDouble(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(FormatDouble(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(FormatDouble(-std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(FormatDouble(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(FormatDouble(-std::numeric_limits<double>::infinity()), "-inf");
  for (double v : {1.0 / 3, 1e-300, 123456789.123, -2.5e-8}) {
    EXPECT_EQ(ParseFloat64(FormatDouble(v)), v);
  }
}

TEST(Utf8Length, CountsCodePoints) {
  EXPECT_EQ(Utf8Length(""), 0);
  EXPECT_EQ(Utf8Length("abc"), 3);
  EXPECT_EQ(Utf8Length("héllo"), 5);
  EXPECT_EQ(Utf8Length("日本語"), 3);
  EXPECT_EQ(Utf8Length("😀x"), 2);
  // Long enough to use the 8-byte path, with multibyte text across word edges.
  EXPECT_EQ(Utf8Length("abcdefgh日本語ijklmnopé😀qrstuvwxyz"), 8 + 3 + 8 + 2 + 10);
}

TEST(IsValidUtf8, AcceptsValidText) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8("plain ascii text longer than eight bytes"));
  EXPECT_TRUE(IsValidUtf8("héllo wörld 日本語 😀"));
  EXPECT_TRUE(IsValidUtf8("\xC2\x80"));          // U+0080
  EXPECT_TRUE(IsValidUtf8("\xED\x9F\xBF"));      // U+D7FF
  EXPECT_TRUE(IsValidUtf8("\xEE\x80\x80"));      // U+E000
  EXPECT_TRUE(IsValidUtf8("\xF4\x8F\xBF\xBF"));  // U+10FFFF
  EXPECT_TRUE(IsValidUtf8(std::string("a\0b", 3)));
}

TEST(IsValidUtf8, RejectsOverlongsSurrogatesAndOutOfRange) {
  for (const char* text : {
           "\x80",              // lone continuation
           "\xC0\x80",          // overlong NUL
           "\xC1\xBF",          // overlong
           "\xE0\x9F\xBF",      // overlong 3-byte
           "\xF0\x8F\xBF\xBF",  // overlong 4-byte
           "\xED\xA0\x80",      // surrogate U+D800
           "\xED\xBF\xBF",      // surrogate U+DFFF
           "\xF4\x90\x80\x80",  // U+110000
           "\xF5\x80\x80\x80",  // lead byte beyond range
           "\xFF",              //
           "\xC3",              // truncated
           "\xE6\x97",          // truncated
           "\xE6\x97\x41",      // bad continuation
           "abcdefghijklmn\xC3",
           "abcdefgh\xE6\x97\xA5\xE6\x9Cxyzxyzxyz",
       }) {
    EXPECT_FALSE(IsValidUtf8(text)) << text;
  }
}

}  // namespace
}  // namespace griffin
