#include "cli/standard_streams.h"

#include <gtest/gtest.h>

namespace griffin {
namespace {

TEST(StandardStreamsTest, AWriteToAFullDeviceIsAnInputError) {
  std::FILE* full = std::fopen("/dev/full", "w");
  ASSERT_NE(full, nullptr);
  Status status = WriteWhole(full, std::string(100000, 'x'), "standard output");
  std::fclose(full);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kInputError);
  EXPECT_EQ(status.message(), "standard output: cannot write the report: No space left on device");
}

TEST(StandardStreamsTest, ASmallWriteFailsAtTheFlush) {
  // A few bytes fit in the stdio buffer: the error only shows at fflush.
  std::FILE* full = std::fopen("/dev/full", "w");
  ASSERT_NE(full, nullptr);
  Status status = WriteWhole(full, "ok\n", "out");
  std::fclose(full);
  EXPECT_EQ(status.message(), "out: cannot write the report: No space left on device");
}

TEST(StandardStreamsTest, AWholeWriteIsOk) {
  std::FILE* null = std::fopen("/dev/null", "w");
  ASSERT_NE(null, nullptr);
  EXPECT_TRUE(WriteWhole(null, std::string(100000, 'x'), "out").ok());
  std::fclose(null);
}

}  // namespace
}  // namespace griffin
