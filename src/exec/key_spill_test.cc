#include "exec/key_spill.h"

#include <unistd.h>

#include <filesystem>
#include <random>

#include <gtest/gtest.h>

namespace griffin {
namespace {

namespace fs = std::filesystem;

class KeySpillTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("griffin_key_spill_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(KeySpillTest, RecordsComeBackPerPartitionInAppendOrder) {
  auto spill = KeySpill::Open(dir_.string());
  ASSERT_TRUE(spill.ok()) << spill.status().message();
  std::mt19937_64 random(7);
  std::vector<std::string> expected(KeySpill::kPartitions);
  int64_t bytes = 0;
  for (int i = 0; i < 50000; ++i) {  // past the buffers: most partitions write several times
    const uint64_t hash = random();
    const std::string record = std::to_string(i) + ";";
    (*spill)->Append(hash, record);
    expected[KeySpill::PartitionOf(hash)] += record;
    bytes += static_cast<int64_t>(record.size());
  }
  EXPECT_EQ((*spill)->bytes(), bytes);
  ASSERT_TRUE((*spill)->status().ok());
  for (int p = 0; p < KeySpill::kPartitions; ++p) {
    auto read = (*spill)->Read(p);
    ASSERT_TRUE(read.ok()) << read.status().message();
    EXPECT_EQ(*read, expected[p]) << "partition " << p;
    (*spill)->Drop(p);
  }
}

TEST_F(KeySpillTest, LeavesNoFileInTheDirectory) {
  auto spill = KeySpill::Open(dir_.string());
  ASSERT_TRUE(spill.ok());
  for (int i = 0; i < 100000; ++i) (*spill)->Append(static_cast<uint64_t>(i) * 0x9e3779b97f4a7c15ULL, "0123456789");
  // While the files are open and hold data, the directory shows none of them.
  EXPECT_TRUE(fs::is_empty(dir_));
  spill->reset();
  EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(KeySpillTest, AMissingDirectoryIsAnInputErrorNamingIt) {
  auto spill = KeySpill::Open((dir_ / "missing").string());
  ASSERT_FALSE(spill.ok());
  EXPECT_EQ(spill.status().code(), StatusCode::kInputError);
  EXPECT_NE(spill.status().message().find("missing"), std::string::npos) << spill.status().message();
}

}  // namespace
}  // namespace griffin
