#include "util/unnamed_file.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace griffin {
namespace {

class UnnamedFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (std::filesystem::temp_directory_path() / "griffin_unnamed_file_XXXXXX").string();
    ASSERT_NE(::mkdtemp(dir_.data()), nullptr);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string dir_;
};

TEST_F(UnnamedFileTest, TheFileHoldsBytesButHasNoNameInItsDirectory) {
  const int fd = OpenUnnamedFile(dir_);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::write(fd, "hello", 5), 5);
  EXPECT_TRUE(std::filesystem::is_empty(dir_));
  char back[5];
  ASSERT_EQ(::pread(fd, back, 5, 0), 5);
  EXPECT_EQ(std::string(back, 5), "hello");
  ::close(fd);
  EXPECT_TRUE(std::filesystem::is_empty(dir_));
}

TEST_F(UnnamedFileTest, OpenFilePathReadsTheWholeFileFromItsStartWhileTheDescriptorIsOpen) {
  const int fd = OpenUnnamedFile(dir_);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::write(fd, "abcdef", 6), 6);  // the descriptor's offset is now at the end
  const std::string path = OpenFilePath(fd);
  std::stringstream bytes;
  bytes << std::ifstream(path, std::ios::binary).rdbuf();
  EXPECT_EQ(bytes.str(), "abcdef");
  ::close(fd);
  EXPECT_FALSE(std::ifstream(path).good());
}

TEST_F(UnnamedFileTest, AMissingDirectoryIsMinusOneWithErrno) {
  errno = 0;
  EXPECT_EQ(OpenUnnamedFile(dir_ + "/absent"), -1);
  EXPECT_NE(errno, 0);
}

}  // namespace
}  // namespace griffin
