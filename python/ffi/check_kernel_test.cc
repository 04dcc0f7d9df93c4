#include "check_kernel.h"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

namespace griffin::jax_ffi {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(CheckKernelTest, CountsNanInfAndOutOfRange) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> values = {0.5f, nan, inf, -inf, -1.0f, 2.0f, 1.0f, 0.0f};
  CheckCounts counts = CountHost(values.data(), static_cast<int64_t>(values.size()), ElementKind::kF32, 0.0, 1.0);
  EXPECT_EQ(counts.nan, 1);
  EXPECT_EQ(counts.inf, 2);
  EXPECT_EQ(counts.out_of_range, 4);   // inf, -inf, -1, 2 (bounds inclusive; NaN is not out of range)
  CheckCounts unbounded = CountHost(values.data(), static_cast<int64_t>(values.size()), ElementKind::kF32, -kInf, kInf);
  EXPECT_EQ(unbounded.out_of_range, 0);
}

TEST(CheckKernelTest, HalfAndBfloat16Decoding) {
  EXPECT_EQ(F16ToFloat(0x3c00), 1.0f);
  EXPECT_EQ(F16ToFloat(0xc000), -2.0f);
  EXPECT_EQ(F16ToFloat(0x0001), 5.960464477539063e-08f);   // smallest subnormal
  EXPECT_EQ(F16ToFloat(0x7c00), std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(F16ToFloat(0x7e00)));
  EXPECT_EQ(Bf16ToFloat(0x3f80), 1.0f);
  EXPECT_EQ(Bf16ToFloat(0xc2f7), -123.5f);
  EXPECT_TRUE(std::isnan(Bf16ToFloat(0x7fc0)));
  std::vector<uint16_t> bf16 = {0x3f80, 0x7fc0, 0xff80, 0x4120};   // 1, NaN, -inf, 10
  CheckCounts counts = CountHost(bf16.data(), 4, ElementKind::kBF16, 0.0, 5.0);
  EXPECT_EQ(counts.nan, 1);
  EXPECT_EQ(counts.inf, 1);
  EXPECT_EQ(counts.out_of_range, 2);
}

TEST(CheckKernelTest, IntegersHaveOnlyRanges) {
  std::vector<int64_t> values = {-5, 0, 7, std::numeric_limits<int64_t>::max()};
  CheckCounts counts = CountHost(values.data(), 4, ElementKind::kS64, 0.0, 10.0);
  EXPECT_EQ(counts.nan + counts.inf, 0);
  EXPECT_EQ(counts.out_of_range, 2);
}

}  // namespace
}  // namespace griffin::jax_ffi
