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

TEST(ByteSizeTest, FormatsForPeopleInUnitsTheParserReads) {
  EXPECT_EQ(FormatByteSize(0), "0 bytes");
  EXPECT_EQ(FormatByteSize(1), "1 byte");
  EXPECT_EQ(FormatByteSize(1023), "1023 bytes");
  EXPECT_EQ(FormatByteSize(600 * 1024), "600 KB");
  EXPECT_EQ(FormatByteSize(1536 * 1024), "1.5 MB");
  EXPECT_EQ(FormatByteSize(int64_t{512} << 20), "512 MB");
  EXPECT_EQ(FormatByteSize(int64_t{3} << 40), "3 TB");
  EXPECT_EQ(FormatByteSize(int64_t{5000} << 40), "5000 TB");
  for (int64_t bytes : {int64_t{1}, int64_t{7}, int64_t{600} << 10, int64_t{512} << 20, int64_t{2} << 30}) {
    auto parsed = ParseByteSize(FormatByteSize(bytes));
    ASSERT_TRUE(parsed.ok()) << FormatByteSize(bytes) << ": " << parsed.status().message();
    EXPECT_EQ(*parsed, bytes) << bytes;
  }
}

}  // namespace
}  // namespace griffin
