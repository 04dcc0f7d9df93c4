#include "sinks/output_guard.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace griffin {
namespace {

namespace fs = std::filesystem;

class OutputGuardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("griffin_output_guard_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    std::ofstream(dir_ / "data.csv") << "a\n1\n";
    std::ofstream(dir_ / "rules.yaml") << "griffin: 1\n";
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Path(const char* name) const { return (dir_ / name).string(); }
  Status Guard(const std::string& output) const {
    return RefuseOutputOverFiles("--clean", output, {{"input", Path("data.csv")}, {"rule file", Path("rules.yaml")}});
  }

  fs::path dir_;
};

TEST_F(OutputGuardTest, NewAndOtherFilesAreAllowed) {
  EXPECT_TRUE(Guard(Path("clean.csv")).ok());
  std::ofstream(Path("other.csv")) << "x\n";
  EXPECT_TRUE(Guard(Path("other.csv")).ok());
  EXPECT_TRUE(RefuseOutputOverFiles("--clean", Path("clean.csv"), {{"input", "-"}}).ok());
}

TEST_F(OutputGuardTest, TheSameFileByAnyNameIsRefused) {
  fs::create_symlink(Path("data.csv"), Path("link.csv"));
  fs::create_hard_link(Path("data.csv"), Path("hard.csv"));
  for (const std::string& output : {Path("data.csv"), Path("link.csv"), Path("hard.csv"),
                                    (dir_ / "." / "data.csv").string()}) {
    Status status = Guard(output);
    ASSERT_FALSE(status.ok()) << output;
    EXPECT_EQ(status.code(), StatusCode::kUsageError);
    EXPECT_EQ(status.message(), "--clean " + output + ": is the input " + Path("data.csv") +
                                    " (the same file); writing it would replace the input; choose another path");
  }
  Status rules = Guard(Path("rules.yaml"));
  ASSERT_FALSE(rules.ok());
  EXPECT_NE(rules.message().find("is the rule file"), std::string::npos) << rules.message();
}

}  // namespace
}  // namespace griffin
