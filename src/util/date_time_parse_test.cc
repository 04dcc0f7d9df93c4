#include <gtest/gtest.h>

#include <limits>

#include "util/value_parse.h"

namespace griffin {
namespace {

constexpr int64_t kDay = 86400LL * 1000000;
constexpr int64_t kSecond = 1000000;

TEST(DaysFromCivil, KnownDates) {
  EXPECT_EQ(DaysFromCivil(1970, 1, 1), 0);
  EXPECT_EQ(DaysFromCivil(1970, 1, 2), 1);
  EXPECT_EQ(DaysFromCivil(1969, 12, 31), -1);
  EXPECT_EQ(DaysFromCivil(2000, 3, 1), 11017);
  EXPECT_EQ(DaysFromCivil(2024, 2, 29), 19782);
  EXPECT_EQ(DaysFromCivil(1, 1, 1), -719162);
  EXPECT_EQ(DaysFromCivil(9999, 12, 31), 2932896);
}

TEST(ParseDate, ValidatesTheCalendar) {
  EXPECT_EQ(ParseDate("1970-01-01"), 0);
  EXPECT_EQ(ParseDate(" 2024-02-29\t"), 19782);
  EXPECT_EQ(ParseDate("2000-02-29"), DaysFromCivil(2000, 2, 29));
  EXPECT_EQ(ParseDate("0001-01-01"), -719162);
  EXPECT_EQ(ParseDate("9999-12-31"), 2932896);
  for (const char* text : {"2023-02-29", "1900-02-29", "2024-04-31", "2024-13-01", "2024-00-10",
                           "2024-01-00", "0000-01-01", "2024-1-01", "2024-01-1", "24-01-01",
                           "2024/01/01", "2024-01-01T00:00:00", "2024-01-01x", "", "20240101",
                           "+024-01-01"}) {
    EXPECT_EQ(ParseDate(text), std::nullopt) << text;
  }
}

TEST(ParseTimestamp, IsoForms) {
  EXPECT_EQ(ParseTimestamp("1970-01-01T00:00:00"), 0);
  EXPECT_EQ(ParseTimestamp("1970-01-01 00:00:01"), kSecond);
  EXPECT_EQ(ParseTimestamp("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(ParseTimestamp("1970-01-02T00:00:00.5Z"), kDay + 500000);
  EXPECT_EQ(ParseTimestamp("1970-01-01T00:00:00.123456"), 123456);
  EXPECT_EQ(ParseTimestamp("1970-01-01T00:00:00.1234567891"), 123456);  // truncated
  EXPECT_EQ(ParseTimestamp("1970-01-01T02:00:00+02:00"), 0);
  EXPECT_EQ(ParseTimestamp("1969-12-31T19:00:00-05:00"), 0);
  EXPECT_EQ(ParseTimestamp("  2024-02-29T23:59:59Z "),
            DaysFromCivil(2024, 2, 29) * kDay + (86400 - 1) * kSecond);
  EXPECT_EQ(ParseTimestamp("1969-12-31T23:59:59.999999Z"), -1);
}

TEST(ParseTimestamp, RejectsMalformed) {
  for (const char* text : {"2024-01-01", "2024-01-01T", "2024-01-01T24:00:00",
                           "2024-01-01T10:60:00", "2024-01-01T10:00:60", "2024-01-01X10:00:00",
                           "2024-01-01T10:00", "2024-01-01T10:00:00.", "2024-01-01T10:00:00+0200",
                           "2024-01-01T10:00:00+02", "2024-01-01T10:00:00+24:00",
                           "2024-01-01T10:00:00ZZ", "2024-02-30T10:00:00",
                           "2024-01-01T10:00:00 Z", "2024-01-01T1:00:00", ""}) {
    EXPECT_EQ(ParseTimestamp(text), std::nullopt) << text;
  }
}

TEST(ParseTimestampWithFormat, Directives) {
  const int64_t base = DaysFromCivil(2024, 3, 5) * kDay;
  EXPECT_EQ(ParseTimestampWithFormat("2024-03-05 07:08:09", "%Y-%m-%d %H:%M:%S"),
            base + (7 * 3600 + 8 * 60 + 9) * kSecond);
  EXPECT_EQ(ParseTimestampWithFormat("05/03/2024", "%d/%m/%Y"), base);
  EXPECT_EQ(ParseTimestampWithFormat("5/3/24", "%d/%m/%y"), base);
  EXPECT_EQ(ParseTimestampWithFormat("5/3/69", "%d/%m/%y"), DaysFromCivil(1969, 3, 5) * kDay);
  EXPECT_EQ(ParseTimestampWithFormat("20240305", "%Y%m%d"), base);
  EXPECT_EQ(ParseTimestampWithFormat("Mar  5 2024", "%b %e %Y"), base);
  EXPECT_EQ(ParseTimestampWithFormat("march 5 2024", "%b %e %Y"), base);
  EXPECT_EQ(ParseTimestampWithFormat("2024-065", "%Y-%j"), base);
  EXPECT_EQ(ParseTimestampWithFormat("2024-03-05T07:08:09", "%FT%T"),
            base + (7 * 3600 + 8 * 60 + 9) * kSecond);
  EXPECT_EQ(ParseTimestampWithFormat("12:30 AM", "%I:%M %p"), 30 * 60 * kSecond);
  EXPECT_EQ(ParseTimestampWithFormat("12:30 pm", "%I:%M %p"), (12 * 3600 + 30 * 60) * kSecond);
  EXPECT_EQ(ParseTimestampWithFormat("01:00 PM", "%I:%M %p"), 13 * 3600 * kSecond);
  EXPECT_EQ(ParseTimestampWithFormat("00:00:01.25 +0100", "%H:%M:%S.%f %z"),
            (1 - 3600) * kSecond + 250000);
  EXPECT_EQ(ParseTimestampWithFormat("00:00:00 -01:30", "%T %z"), 5400 * kSecond);
  EXPECT_EQ(ParseTimestampWithFormat("100% 1970", "100%% %Y"), 0);
}

TEST(ParseTimestampWithFormat, RejectsMismatches) {
  EXPECT_EQ(ParseTimestampWithFormat("2024-02-30", "%Y-%m-%d"), std::nullopt);
  EXPECT_EQ(ParseTimestampWithFormat("2023-366", "%Y-%j"), std::nullopt);
  EXPECT_EQ(ParseTimestampWithFormat("2024-03-05 x", "%Y-%m-%d"), std::nullopt);
  EXPECT_EQ(ParseTimestampWithFormat("2024-03", "%Y-%m-%d"), std::nullopt);
  EXPECT_EQ(ParseTimestampWithFormat("13:00 PM", "%I:%M %p"), std::nullopt);
  EXPECT_EQ(ParseTimestampWithFormat("Foo 5 2024", "%b %e %Y"), std::nullopt);
  EXPECT_EQ(ParseTimestampWithFormat("2024", "%Q"), std::nullopt);
  EXPECT_EQ(ParseTimestampWithFormat("2024", "%Y%"), std::nullopt);
}

TEST(CheckTimestampFormat, NamesUnsupportedDirectives) {
  EXPECT_EQ(CheckTimestampFormat("%Y-%m-%d %H:%M:%S.%f%z"), std::nullopt);
  EXPECT_EQ(CheckTimestampFormat("%b %e %Y %I %p %j %y %T %F %%"), std::nullopt);
  EXPECT_EQ(CheckTimestampFormat("%Y-%Q"),
            "unsupported directive %Q (supported: %Y %m %d %H %M %S %f %z %j %b %e %p %I %y %T "
            "%F %%)");
  EXPECT_EQ(CheckTimestampFormat("%Y%"), "format ends with a lone %");
}

TEST(FormatDate, IsoText) {
  EXPECT_EQ(FormatDate(0), "1970-01-01");
  EXPECT_EQ(FormatDate(-1), "1969-12-31");
  EXPECT_EQ(FormatDate(19782), "2024-02-29");
  EXPECT_EQ(FormatDate(-719162), "0001-01-01");
  EXPECT_EQ(FormatDate(2932896), "9999-12-31");
}

// The ends of int64 microseconds format without overflow (found by
// arrow_ipc_fuzz: the day's start, days * kMicrosPerDay, overflowed near INT64_MIN).
TEST(FormatTimestamp, Int64EndsFormatWithoutOverflow) {
  EXPECT_EQ(FormatTimestamp(std::numeric_limits<int64_t>::max()), "294247-01-10T04:00:54.775807Z");
  EXPECT_EQ(FormatTimestamp(std::numeric_limits<int64_t>::min()), "-290308-12-21T19:59:05.224192Z");
}

TEST(FormatTimestamp, IsoTextWithOptionalFraction) {
  EXPECT_EQ(FormatTimestamp(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(FormatTimestamp(-1), "1969-12-31T23:59:59.999999Z");
  EXPECT_EQ(FormatTimestamp(kDay + 3723 * kSecond + 5), "1970-01-02T01:02:03.000005Z");
  for (const char* text : {"2024-02-29T23:59:59Z", "0001-01-01T00:00:00Z",
                           "1999-12-31T12:00:00.5Z"}) {
    std::optional<int64_t> parsed = ParseTimestamp(text);
    ASSERT_TRUE(parsed.has_value()) << text;
    EXPECT_EQ(ParseTimestamp(FormatTimestamp(*parsed)), parsed);
  }
  EXPECT_EQ(FormatTimestamp(*ParseTimestamp("1999-12-31T12:00:00.5Z")),
            "1999-12-31T12:00:00.500000Z");
}

TEST(DateRoundTrip, EveryDayOfFourHundredYears) {
  for (int64_t days = DaysFromCivil(1900, 1, 1); days < DaysFromCivil(2300, 1, 1); ++days) {
    ASSERT_EQ(ParseDate(FormatDate(days)), days);
  }
}

}  // namespace
}  // namespace griffin
