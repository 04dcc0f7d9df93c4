#include "plan/value_set.h"

#include <limits>
#include <random>
#include <set>

#include <gtest/gtest.h>

namespace griffin {
namespace {

void ExpectSameAsStdSet(const std::vector<int64_t>& values, const std::vector<int64_t>& probes) {
  IntValueSet set(values);
  std::set<int64_t> reference(values.begin(), values.end());
  for (int64_t p : probes) EXPECT_EQ(set.Contains(p), reference.count(p) > 0) << p;
}

TEST(ValueSetTest, IntegersInASmallSpanAndInAWideOne) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  const std::vector<int64_t> probes = {kMin, kMin + 1, -70000, -2, -1, 0, 1, 2, 3, 63, 64, 65, 65535, 65536, kMax - 1, kMax};
  ExpectSameAsStdSet({0, 1}, probes);                  // a bitmap
  ExpectSameAsStdSet({-1, 1, 1, 64, -1}, probes);      // duplicates, negatives
  ExpectSameAsStdSet({0, 65535}, probes);              // the widest bitmap
  ExpectSameAsStdSet({0, 65536}, probes);              // one past: sorted
  ExpectSameAsStdSet({kMin, kMax}, probes);            // a span that overflows int64
  ExpectSameAsStdSet({}, probes);
  std::mt19937_64 rng(3);
  std::vector<int64_t> wide, random_probes = probes;
  for (int i = 0; i < 100; ++i) wide.push_back(static_cast<int64_t>(rng()) >> (i % 40));
  for (int i = 0; i < 1000; ++i) random_probes.push_back(i % 2 ? wide[i % wide.size()] : static_cast<int64_t>(rng()) >> (i % 40));
  ExpectSameAsStdSet(wide, random_probes);             // binary search
}

TEST(ValueSetTest, StringsCompareExactlyWhateverTheirLength) {
  const std::vector<std::string> values = {"", "a", std::string("a\0", 2), "USD", "EUR", "12345678", "123456789",
                                           "a much longer value", "h\xc3\xa9"};
  StringValueSet set(values);
  std::set<std::string> reference(values.begin(), values.end());
  const std::vector<std::string> probes = {"", "a", std::string("a\0", 2), std::string("\0", 1), "b", "USD", "usd",
                                           "EU", "EURO", "12345678", "12345679", "123456789", "1234567890",
                                           "a much longer value", "a much longer valuE", "h\xc3\xa9", "he"};
  for (const std::string& p : probes) EXPECT_EQ(set.Contains(p), reference.count(p) > 0) << p;
  EXPECT_FALSE(StringValueSet(std::vector<std::string>{}).Contains(""));
}

TEST(ValueSetTest, RandomShortStringsAgreeWithStdSet) {
  std::mt19937 rng(11);
  auto random_string = [&] {
    std::string s(rng() % 10, ' ');
    for (char& c : s) c = "ab\0\xff"[rng() % 4];  // few letters: many near misses
    return s;
  };
  for (int round = 0; round < 20; ++round) {
    std::vector<std::string> values;
    for (int i = 0; i < 1 + round * 3; ++i) values.push_back(random_string());
    StringValueSet set(values);
    std::set<std::string> reference(values.begin(), values.end());
    for (int i = 0; i < 500; ++i) {
      const std::string probe = random_string();
      ASSERT_EQ(set.Contains(probe), reference.count(probe) > 0) << round;
    }
  }
}

TEST(ValueSetTest, ManyStringsOfOneLengthAndManyLongOnes) {
  std::vector<std::string> values;
  for (int i = 0; i < 300; i += 3) values.push_back(std::to_string(1000 + i));               // 100 of 4 bytes
  for (int i = 0; i < 300; i += 3) values.push_back("long-value-" + std::to_string(i));      // 100 long
  StringValueSet set(values);
  std::set<std::string> reference(values.begin(), values.end());
  for (int i = 0; i < 300; ++i) {
    for (const std::string& p : {std::to_string(1000 + i), "long-value-" + std::to_string(i)})
      EXPECT_EQ(set.Contains(p), reference.count(p) > 0) << p;
  }
}

}  // namespace
}  // namespace griffin
