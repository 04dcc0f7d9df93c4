#include "util/float_key.h"

#include <gtest/gtest.h>

#include <limits>

namespace griffin {
namespace {

TEST(FloatKeyTest, EqualValuesHaveEqualBitsAndDistinctValuesDistinctBits) {
  EXPECT_EQ(FloatKeyBits(-0.0), FloatKeyBits(0.0));
  EXPECT_EQ(FloatKeyBits(std::nan("1")), FloatKeyBits(-std::numeric_limits<double>::quiet_NaN()));
  EXPECT_NE(FloatKeyBits(1.5), FloatKeyBits(-1.5));
  EXPECT_NE(FloatKeyBits(std::numeric_limits<double>::infinity()), FloatKeyBits(std::nan("")));
}

}  // namespace
}  // namespace griffin
