#include "util/fixed_date.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "util/value_parse.h"
#include "util/value_parse_internal.h"

namespace griffin {
namespace {

TEST(FixedDate, TakesTheFixedLayout) {
  int64_t days = -1;
  ASSERT_TRUE(ParseFixedDate("1970-01-01", &days));
  EXPECT_EQ(days, 0);
  ASSERT_TRUE(ParseFixedDate("2024-02-29", &days));
  EXPECT_EQ(days, 19782);
  ASSERT_TRUE(ParseFixedDate("0001-01-01", &days));
  EXPECT_EQ(days, -719162);
  ASSERT_TRUE(ParseFixedDate("9999-12-31", &days));
  EXPECT_EQ(days, 2932896);
}

TEST(FixedDate, LeavesEverythingElseToTheGeneralParser) {
  int64_t days = 0;
  for (const char* text : {"2023-02-29", "2024-13-01", "2024-00-10", "2024-01-00", "2024-04-31", "0000-01-01",
                           " 2024-01-01", "2024-01-01 ", "2024-1-01", "2024/01/01", "2024-01-0a", "20240101",
                           "2024-01-01T00:00:00", ""}) {
    EXPECT_FALSE(ParseFixedDate(text, &days)) << text;
  }
  EXPECT_EQ(ParseDate(" 2024-01-01 "), internal::ParseDateGeneral("2024-01-01"));
}

// Random near-dates: wherever the fast path answers it agrees with the
// general parser, and ParseDate always equals the general parser.
TEST(FixedDate, AgreesWithTheGeneralParser) {
  std::mt19937 rng(17);
  const std::string alphabet = "0123456789- /x";
  int fast = 0;
  for (int i = 0; i < 300000; ++i) {
    std::string text;
    if (i % 2 == 0) {  // a date with random digits, then maybe one byte changed
      char buffer[16];
      std::snprintf(buffer, sizeof buffer, "%04u-%02u-%02u", static_cast<unsigned>(rng() % 10000),
                    static_cast<unsigned>(rng() % 14), static_cast<unsigned>(rng() % 33));
      text = buffer;
      if (rng() % 4 == 0) text[rng() % text.size()] = alphabet[rng() % alphabet.size()];
    } else {
      const int length = 8 + static_cast<int>(rng() % 5);
      for (int c = 0; c < length; ++c) text.push_back(alphabet[rng() % alphabet.size()]);
    }
    int64_t days;
    if (ParseFixedDate(text, &days)) {
      ++fast;
      ASSERT_EQ(std::optional<int64_t>(days), internal::ParseDateGeneral(text)) << text;
    }
    ASSERT_EQ(ParseDate(text), internal::ParseDateGeneral(text)) << text;
  }
  EXPECT_GT(fast, 50000);
}

}  // namespace
}  // namespace griffin
