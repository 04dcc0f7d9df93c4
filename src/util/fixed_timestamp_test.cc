#include "util/fixed_timestamp.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "util/value_parse.h"
#include "util/value_parse_internal.h"

namespace griffin {
namespace {

TEST(FixedTimestamp, TakesTheFixedLayouts) {
  int64_t micros = -1;
  ASSERT_TRUE(ParseFixedTimestamp("2024-02-29T23:59:59Z", &micros));
  EXPECT_EQ(micros, (19782LL * 86400 + 86399) * 1000000);
  ASSERT_TRUE(ParseFixedTimestamp("1970-01-01 00:00:01", &micros));
  EXPECT_EQ(micros, 1000000);
  ASSERT_TRUE(ParseFixedTimestamp("0001-01-01T00:00:00", &micros));
  EXPECT_EQ(micros, -719162LL * 86400 * 1000000);
}

TEST(FixedTimestamp, LeavesEverythingElseToTheGeneralParser) {
  int64_t micros = 0;
  for (const char* text : {"2023-02-29T00:00:00Z", "2024-13-01T00:00:00", "2024-01-01T24:00:00",
                           "0000-01-01T00:00:00", " 2024-01-01T00:00:00", "2024-01-01T00:00:00 ",
                           "2024-01-01T00:00:00.5", "2024-01-01T00:00:00+01:00", "2024-01-01x00:00:00",
                           "2024-01-01T00:00:0a", "2024-01-01T00:00:00z", "2024-01-01", ""}) {
    EXPECT_FALSE(ParseFixedTimestamp(text, &micros)) << text;
  }
  // The general parser still takes the forms the fast path leaves to it.
  EXPECT_EQ(ParseTimestamp(" 2024-01-01T00:00:00+01:00"), internal::ParseTimestampGeneral("2024-01-01T00:00:00+01:00"));
}

// Random near-timestamps: wherever the fast path answers, it agrees with the
// general parser, and ParseTimestamp always equals the general parser.
TEST(FixedTimestamp, AgreesWithTheGeneralParser) {
  std::mt19937 rng(16);
  const std::string alphabet = "0123456789-T :Z+.x";
  auto below = [&rng](unsigned bound) { return static_cast<unsigned>(rng() % bound); };
  int fast = 0;
  for (int i = 0; i < 200000; ++i) {
    char base[32];
    std::snprintf(base, sizeof base, "%04u-%02u-%02uT%02u:%02u:%02uZ", below(10000), below(14), below(33), below(26),
                  below(62), below(62));
    std::string text = base;
    for (int edits = rng() % 3; edits > 0; --edits) {
      const size_t at = rng() % (text.size() + 1);
      switch (rng() % 3) {
        case 0: if (at < text.size()) text[at] = alphabet[rng() % alphabet.size()]; break;
        case 1: text.insert(text.begin() + at, alphabet[rng() % alphabet.size()]); break;
        default: if (at < text.size()) text.erase(at, 1); break;
      }
    }
    if (rng() % 4 == 0) text.pop_back();  // no "Z"
    int64_t micros = 0;
    const std::optional<int64_t> general = internal::ParseTimestampGeneral(text);
    if (ParseFixedTimestamp(text, &micros)) {
      ++fast;
      ASSERT_EQ(general, micros) << text;
    }
    ASSERT_EQ(ParseTimestamp(text), general) << text;
  }
  EXPECT_GT(fast, 20000);  // the fast path answered for a good share of them
}

}  // namespace
}  // namespace griffin
