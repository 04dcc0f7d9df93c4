#include "io/spooled_output.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

namespace griffin {
namespace {

// Publishes by remembering what the spool held; `during` runs inside Publish.
class RecordingOutput : public SpooledOutput {
 public:
  RecordingOutput(std::string* published, std::function<void()> during = {})
      : SpooledOutput("table:t"), published_(published), during_(std::move(during)) {}
  Status Open(const std::string& temp_dir = "") { return SpooledOutput::Open("spool_test", temp_dir); }

 private:
  Result<CommittedObject> Publish(const std::string& spool_path) override {
    std::stringstream bytes;
    bytes << std::ifstream(spool_path, std::ios::binary).rdbuf();
    *published_ = bytes.str();
    std::error_code error;
    spool_target_ = std::filesystem::read_symlink(spool_path, error).string();
    if (during_) during_();
    CommittedObject committed;
    committed.size = static_cast<int64_t>(published_->size());
    return committed;
  }
  std::string* published_;
  std::function<void()> during_;

 public:
  std::string spool_target_;  // where the spool's descriptor pointed while publishing
};

// A private temp folder (TMPDIR) for each test, so other processes' files do not count.
class SpooledOutputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = (std::filesystem::temp_directory_path() / "griffin_spool_test_XXXXXX").string();
    ASSERT_NE(::mkdtemp(folder_.data()), nullptr);
    const char* old_tmpdir = std::getenv("TMPDIR");
    had_tmpdir_ = old_tmpdir != nullptr;
    if (had_tmpdir_) saved_tmpdir_ = old_tmpdir;
    ::setenv("TMPDIR", folder_.c_str(), 1);
  }
  void TearDown() override {
    if (had_tmpdir_) ::setenv("TMPDIR", saved_tmpdir_.c_str(), 1);
    else ::unsetenv("TMPDIR");
    std::filesystem::remove_all(folder_);
  }
  bool FolderIsEmpty() const { return std::filesystem::is_empty(folder_); }
  std::string folder_;
  std::string saved_tmpdir_;
  bool had_tmpdir_ = false;
};

TEST_F(SpooledOutputTest, CommitPublishesEveryByteOnce) {
  std::string published;
  RecordingOutput output(&published);
  ASSERT_TRUE(output.Open().ok());
  ASSERT_TRUE(output.Write("abc").ok());
  ASSERT_TRUE(output.Write(std::string(100000, 'x')).ok());
  auto committed = output.Commit();
  ASSERT_TRUE(committed.ok()) << committed.status().message();
  EXPECT_EQ(committed->size, 100003);
  EXPECT_EQ(published.substr(0, 3), "abc");
  EXPECT_EQ(published.size(), 100003u);
  EXPECT_FALSE(output.Write("late").ok());
  EXPECT_FALSE(output.Commit().ok());
}

// A run killed with -9 runs no destructor: the spool must have no name in the temp
// folder at any point, or each killed run would leave it behind (until 2026-12-07:
// 14 spools of 137 MB per suite run, on a machine that CI reuses).
TEST_F(SpooledOutputTest, TheSpoolNeverHasANameInTheTempFolder) {
  std::string published;
  bool empty_while_publishing = false;
  RecordingOutput output(&published, [&] { empty_while_publishing = FolderIsEmpty(); });
  ASSERT_TRUE(output.Open().ok());
  EXPECT_TRUE(FolderIsEmpty());
  ASSERT_TRUE(output.Write(std::string(1 << 20, 'r')).ok());
  EXPECT_TRUE(FolderIsEmpty());
  ASSERT_TRUE(output.Commit().ok());
  EXPECT_TRUE(empty_while_publishing);
  EXPECT_EQ(published.size(), size_t{1} << 20);
  EXPECT_TRUE(FolderIsEmpty());
}

TEST_F(SpooledOutputTest, AbortAndDestructionPublishNothing) {
  std::string published = "untouched";
  {
    RecordingOutput aborted(&published);
    ASSERT_TRUE(aborted.Open().ok());
    ASSERT_TRUE(aborted.Write("rows").ok());
    aborted.Abort();
    aborted.Abort();  // idempotent
    EXPECT_FALSE(aborted.Commit().ok());
    RecordingOutput dropped(&published);
    ASSERT_TRUE(dropped.Open().ok());
    ASSERT_TRUE(dropped.Write("rows").ok());
  }
  EXPECT_EQ(published, "untouched");
  EXPECT_TRUE(FolderIsEmpty());
}

TEST_F(SpooledOutputTest, AnExplicitTempDirHoldsTheSpoolInsteadOfTmpdir) {
  const std::string chosen = folder_ + "/chosen";
  std::filesystem::create_directory(chosen);
  std::string published;
  RecordingOutput output(&published);
  ASSERT_TRUE(output.Open(chosen).ok());
  ASSERT_TRUE(output.Write("rows").ok());
  ASSERT_TRUE(output.Commit().ok());
  EXPECT_EQ(published, "rows");
  EXPECT_EQ(output.spool_target_.rfind(chosen + "/", 0), 0u) << output.spool_target_;
  EXPECT_TRUE(std::filesystem::is_empty(chosen));
}

TEST_F(SpooledOutputTest, AMissingTempFolderIsAnErrorNamingTheOutputAndTheFolder) {
  ::setenv("TMPDIR", (folder_ + "/absent").c_str(), 1);
  std::string published;
  RecordingOutput output(&published);
  const Status status = output.Open();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("table:t"), std::string::npos) << status.message();
  const Status explicit_dir = output.Open(folder_ + "/absent");
  ASSERT_FALSE(explicit_dir.ok());
  EXPECT_NE(explicit_dir.message().find(folder_ + "/absent"), std::string::npos) << explicit_dir.message();
}

}  // namespace
}  // namespace griffin
