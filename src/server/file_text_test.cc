#include "server/file_text.h"

#include <gtest/gtest.h>

#include "io/io_test_util.h"

namespace griffin::server {
namespace {

TEST(FileTextTest, ReadsBytesOrSaysWhy) {
  griffin::testing::TempDir dir;
  const std::string bytes("a\0b\r\nc", 6);
  EXPECT_EQ(*ReadFileText(dir.Write("f.yaml", bytes)), bytes);
  EXPECT_EQ(*ReadFileText(dir.Write("empty.yaml", "")), "");
  auto missing = ReadFileText(dir.Path("gone.yaml"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kUsageError);
  EXPECT_EQ(missing.status().message(), "cannot read " + dir.Path("gone.yaml") + ": No such file or directory");
}

}  // namespace
}  // namespace griffin::server
