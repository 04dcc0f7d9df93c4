#include "util/dead_process_files.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

namespace griffin {
namespace {

class DeadProcessFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (std::filesystem::temp_directory_path() / "griffin_dead_files_XXXXXX").string();
    ASSERT_NE(::mkdtemp(dir_.data()), nullptr);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void Touch(const std::string& name) const { std::ofstream(dir_ + "/" + name) << "x"; }
  std::set<std::string> Names() const {
    std::set<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir_)) names.insert(entry.path().filename());
    return names;
  }
  std::string dir_;
};

// The pid of a child that has exited and been reaped: no process has it (until
// the kernel reuses it, which a test's few milliseconds do not reach).
pid_t DeadPid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);
  return child;
}

TEST_F(DeadProcessFilesTest, OnlyADeadProcesssFilesWithTheExactPrefixGo) {
  const std::string dead = std::to_string(DeadPid());
  const std::string live = std::to_string(::getppid());
  Touch(".out.griffin-" + dead + "-ab12");
  Touch(".out.griffin-" + dead + "-ab12.wal");
  Touch(PidTaggedPrefix(".out.griffin-") + "cd34");  // this process's own file
  Touch(".out.griffin-" + live + "-ef56");                       // a live process's file
  Touch(".other.griffin-" + dead + "-ab12");                     // another output's prefix
  Touch(".out.griffin-ab12cd34");                                // an older name without a pid
  Touch(".out.griffin-12x4-ab");                                 // not a pid
  EXPECT_EQ(RemoveDeadProcessFiles(dir_, ".out.griffin-"), 2);
  const std::set<std::string> kept = {PidTaggedPrefix(".out.griffin-") + "cd34", ".out.griffin-" + live + "-ef56",
                                      ".other.griffin-" + dead + "-ab12", ".out.griffin-ab12cd34",
                                      ".out.griffin-12x4-ab"};
  EXPECT_EQ(Names(), kept);
}

TEST_F(DeadProcessFilesTest, AMissingFolderRemovesNothing) {
  EXPECT_EQ(RemoveDeadProcessFiles(dir_ + "/absent", ".x-"), 0);
}

}  // namespace
}  // namespace griffin
