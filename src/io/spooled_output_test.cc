#include "io/spooled_output.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace griffin {
namespace {

// Publishes by remembering what the spool held.
class RecordingOutput : public SpooledOutput {
 public:
  RecordingOutput(std::string* published, std::string* spool_seen)
      : SpooledOutput("table:t"), published_(published), spool_seen_(spool_seen) {}
  Status Open() { return SpooledOutput::Open("spool_test"); }

 private:
  Result<CommittedObject> Publish(const std::string& spool_path) override {
    *spool_seen_ = spool_path;
    std::stringstream bytes;
    bytes << std::ifstream(spool_path, std::ios::binary).rdbuf();
    *published_ = bytes.str();
    CommittedObject committed;
    committed.size = static_cast<int64_t>(published_->size());
    return committed;
  }
  std::string* published_;
  std::string* spool_seen_;
};

TEST(SpooledOutputTest, CommitPublishesEveryByteOnceAndRemovesTheSpool) {
  std::string published, spool;
  RecordingOutput output(&published, &spool);
  ASSERT_TRUE(output.Open().ok());
  ASSERT_TRUE(output.Write("abc").ok());
  ASSERT_TRUE(output.Write(std::string(100000, 'x')).ok());
  auto committed = output.Commit();
  ASSERT_TRUE(committed.ok()) << committed.status().message();
  EXPECT_EQ(committed->size, 100003);
  EXPECT_EQ(published.substr(0, 3), "abc");
  EXPECT_FALSE(std::filesystem::exists(spool));
  EXPECT_FALSE(output.Write("late").ok());
  EXPECT_FALSE(output.Commit().ok());
}

TEST(SpooledOutputTest, AbortAndDestructionPublishNothingAndLeaveNoSpool) {
  // A private temp folder (TMPDIR), so other processes' files do not count.
  std::string folder = (std::filesystem::temp_directory_path() / "griffin_spool_test_XXXXXX").string();
  ASSERT_NE(::mkdtemp(folder.data()), nullptr);
  const char* old_tmpdir = std::getenv("TMPDIR");
  const std::string saved = old_tmpdir ? old_tmpdir : "";
  ::setenv("TMPDIR", folder.c_str(), 1);
  std::string published = "untouched", spool;
  {
    RecordingOutput aborted(&published, &spool);
    ASSERT_TRUE(aborted.Open().ok());
    ASSERT_TRUE(aborted.Write("rows").ok());
    aborted.Abort();
    aborted.Abort();  // idempotent
    RecordingOutput dropped(&published, &spool);
    ASSERT_TRUE(dropped.Open().ok());
    ASSERT_TRUE(dropped.Write("rows").ok());
  }
  EXPECT_EQ(published, "untouched");
  EXPECT_TRUE(spool.empty());
  EXPECT_TRUE(std::filesystem::is_empty(folder));
  if (old_tmpdir) ::setenv("TMPDIR", saved.c_str(), 1);
  else ::unsetenv("TMPDIR");
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace griffin
