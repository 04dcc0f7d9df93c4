#include "util/byte_size.h"

#include <gtest/gtest.h>

namespace griffin {
namespace {

int64_t Size(std::string_view text) {
  auto size = ParseByteSize(text);
  EXPECT_TRUE(size.ok()) << text;
  return size.ok() ? *size : -1;
}

TEST(ByteSizeTest, NumbersAndUnits) {
  EXPECT_EQ(Size("0"), 0);
  EXPECT_EQ(Size("4096"), 4096);
  EXPECT_EQ(Size("12b"), 12);
  EXPECT_EQ(Size("64K"), 64 * 1024);
  EXPECT_EQ(Size("64 KiB"), 64 * 1024);
  EXPECT_EQ(Size("512MB"), int64_t{512} << 20);
  EXPECT_EQ(Size("512mb"), int64_t{512} << 20);
  EXPECT_EQ(Size("1.5g"), int64_t{3} << 29);
  EXPECT_EQ(Size("2T"), int64_t{2} << 40);
}

TEST(ByteSizeTest, RefusesWhatIsNotASize) {
  for (const char* text : {"", "MB", "-1", "12 parsecs", "1.5.2", "1e9", "5000000000T", "12 M B"}) {
    auto size = ParseByteSize(text);
    ASSERT_FALSE(size.ok()) << text;
    EXPECT_NE(size.status().message().find(text), std::string::npos);
    EXPECT_EQ(size.status().code(), StatusCode::kUsageError);
  }
}

}  // namespace
}  // namespace griffin
