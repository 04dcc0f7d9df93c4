#include "util/random_hex.h"

#include <gtest/gtest.h>

#include <set>

namespace griffin {
namespace {

TEST(RandomHexTest, GivesDistinctHexNamesOfTheAskedLength) {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    const std::string hex = RandomHex();
    EXPECT_EQ(hex.size(), 12u);
    EXPECT_EQ(hex.find_first_not_of("0123456789abcdef"), std::string::npos) << hex;
    seen.insert(hex);
  }
  EXPECT_EQ(seen.size(), 100u);
  EXPECT_EQ(RandomHex(4).size(), 4u);
  EXPECT_EQ(RandomHex(40).size(), 16u);
}

}  // namespace
}  // namespace griffin
