#include "exec/repeat_log.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include <gtest/gtest.h>

namespace griffin {
namespace {

namespace fs = std::filesystem;

class RepeatLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("griffin_repeat_log_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

// Reads the whole log back in batches of `batch_rows` rows, checking that each
// TakeBefore returns only rows below its end, ascending.
std::vector<LoggedRepeat> ReadAll(RepeatLog& log, int64_t rows, int64_t batch_rows) {
  std::vector<LoggedRepeat> all, taken;
  EXPECT_TRUE(log.StartReading().ok());
  for (int64_t end = batch_rows; end < rows + batch_rows; end += batch_rows) {
    Status status = log.TakeBefore(end, &taken);
    EXPECT_TRUE(status.ok()) << status.message();
    for (const LoggedRepeat& repeat : taken) {
      EXPECT_LT(repeat.row, end);
      EXPECT_GE(repeat.row, end - batch_rows);
    }
    all.insert(all.end(), taken.begin(), taken.end());
  }
  return all;
}

TEST_F(RepeatLogTest, RunsInAnyOrderComeBackMergedByRow) {
  auto log = RepeatLog::Open(dir_.string());
  ASSERT_TRUE(log.ok()) << log.status().message();
  // 200 runs (like spilled partitions): each an ascending subset of 0..999,999,
  // added one run after another, so rows interleave across runs.
  std::mt19937_64 random(11);
  const int64_t rows = 1000000;
  std::vector<LoggedRepeat> expected;
  std::vector<std::vector<int64_t>> runs(200);
  for (int64_t row = 0; row < rows; ++row)
    if (random() % 3 == 0) runs[random() % runs.size()].push_back(row);
  for (const auto& run : runs)
    for (int64_t row : run) {
      (*log)->Add(row, row / 7);
      expected.push_back({row, row / 7});
    }
  ASSERT_TRUE((*log)->status().ok());
  EXPECT_EQ((*log)->repeats(), static_cast<int64_t>(expected.size()));
  EXPECT_EQ((*log)->runs(), 200);
  std::sort(expected.begin(), expected.end(), [](const LoggedRepeat& a, const LoggedRepeat& b) { return a.row < b.row; });
  for (int64_t batch_rows : {int64_t{1}, int64_t{65536}, rows}) {
    const std::vector<LoggedRepeat> read = ReadAll(**log, rows, batch_rows);
    ASSERT_EQ(read.size(), expected.size()) << batch_rows;
    for (size_t i = 0; i < read.size(); ++i) {
      ASSERT_EQ(read[i].row, expected[i].row) << i;
      ASSERT_EQ(read[i].first_row, expected[i].first_row) << i;
    }
  }
}

TEST_F(RepeatLogTest, AnEmptyLogReadsNothingAndAnAscendingOneIsOneRun) {
  auto empty = RepeatLog::Open(dir_.string());
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(ReadAll(**empty, 100, 10).empty());
  auto log = RepeatLog::Open(dir_.string());
  ASSERT_TRUE(log.ok());
  for (int64_t row = 5; row < 100000; row += 5) (*log)->Add(row, 0);
  EXPECT_EQ((*log)->runs(), 1);
  EXPECT_EQ(ReadAll(**log, 100000, 4096).size(), 19999u);
}

TEST_F(RepeatLogTest, TheFileHasNoNameAndAnUnusableDirectoryIsAnInputError) {
  auto log = RepeatLog::Open(dir_.string());
  ASSERT_TRUE(log.ok());
  for (int64_t row = 0; row < 10000; ++row) (*log)->Add(row, 0);
  EXPECT_TRUE(fs::is_empty(dir_));
  auto missing = RepeatLog::Open((dir_ / "missing").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kInputError);
  EXPECT_NE(missing.status().message().find("missing"), std::string::npos);
}

TEST_F(RepeatLogTest, AddingAfterReadingStartedIsAnError) {
  auto log = RepeatLog::Open(dir_.string());
  ASSERT_TRUE(log.ok());
  (*log)->Add(1, 0);
  ASSERT_TRUE((*log)->StartReading().ok());
  (*log)->Add(2, 0);
  EXPECT_FALSE((*log)->status().ok());
}

}  // namespace
}  // namespace griffin
