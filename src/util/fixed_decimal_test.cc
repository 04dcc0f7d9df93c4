#include "util/fixed_decimal.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <random>
#include <string>

#include "util/value_parse.h"
#include "util/value_parse_internal.h"

namespace griffin {
namespace {

// Same double, bit for bit (so -0.0 differs from 0.0), or both absent.
bool SameValue(std::optional<double> a, std::optional<double> b) {
  if (a.has_value() != b.has_value()) return false;
  return !a || std::bit_cast<uint64_t>(*a) == std::bit_cast<uint64_t>(*b);
}

TEST(FixedDecimal, TakesPlainDecimals) {
  double value = 0;
  ASSERT_TRUE(ParseFixedDecimal("123.45", &value));
  EXPECT_EQ(value, 123.45);
  ASSERT_TRUE(ParseFixedDecimal("0.1", &value));
  EXPECT_EQ(value, 0.1);
  ASSERT_TRUE(ParseFixedDecimal("007", &value));
  EXPECT_EQ(value, 7.0);
  ASSERT_TRUE(ParseFixedDecimal(".5", &value));
  EXPECT_EQ(value, 0.5);
  ASSERT_TRUE(ParseFixedDecimal("9007199254740992", &value));  // 2^53
  EXPECT_EQ(value, 9007199254740992.0);
  ASSERT_TRUE(ParseFixedDecimal("0.000000000000000001", &value));  // 19 digits, leading zeros included
  EXPECT_EQ(value, 1e-18);
}

TEST(FixedDecimal, LeavesEverythingElseToTheGeneralParser) {
  double value = 0;
  for (const char* text : {"", ".", "-1", "+1", "1e5", "1.5E3", "1.2.3", " 1", "1 ", "nan", "inf",
                           "9007199254740993",              // 2^53 + 1: not exact
                           "12345678901234567890",          // 20 digits
                           "0.0000000000000000001",         // 20 digits
                           "0x10", "1,5", "١"}) {
    EXPECT_FALSE(ParseFixedDecimal(text, &value)) << text;
  }
}

// Random decimals and near-decimals: ParseFloat64 always equals the general
// parser (from_chars), bit for bit, and the fast path answers for most plain ones.
TEST(FixedDecimal, ParseFloat64AgreesWithTheGeneralParser) {
  std::mt19937_64 rng(2026);
  const std::string alphabet = "0123456789.-+e ";
  int fast = 0, plain = 0;
  for (int i = 0; i < 300000; ++i) {
    std::string text;
    if (i % 2 == 0) {  // a plain decimal: up to 17 digits, a point somewhere or none
      const int length = 1 + static_cast<int>(rng() % 17);
      for (int d = 0; d < length; ++d) text.push_back(static_cast<char>('0' + rng() % 10));
      if (rng() % 4 != 0) text.insert(rng() % (text.size() + 1), 1, '.');
      if (rng() % 3 == 0) text.insert(0, 1, rng() % 2 ? '-' : '+');
      ++plain;
    } else {  // anything near one
      const int length = static_cast<int>(rng() % 12);
      for (int c = 0; c < length; ++c) text.push_back(alphabet[rng() % alphabet.size()]);
    }
    double value;
    std::string_view body = text;
    if (!body.empty() && (body[0] == '-' || body[0] == '+')) body.remove_prefix(1);
    fast += ParseFixedDecimal(body, &value);
    ASSERT_TRUE(SameValue(ParseFloat64(text), internal::ParseFloat64General(text))) << "'" << text << "'";
  }
  EXPECT_GT(fast, plain * 9 / 10);  // the fast path decides nearly every plain decimal
}

}  // namespace
}  // namespace griffin
