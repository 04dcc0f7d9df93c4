#include "connectors/kafka/rules_watcher.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

namespace griffin::kafka {
namespace {

const char* kV1 = "griffin: 1\ndataset: w\ncolumns:\n  n: {type: int64, min: 0}\n";
const char* kV2 = "griffin: 1\ndataset: w\ncolumns:\n  n: {type: int64, min: 50}\n";

void Write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::trunc) << text; }

TEST(RulesWatcher, LoadsAChangedFileOnceAndRefusesABadOneOnce) {
  std::string path = "/tmp/griffin_rules_watcher_" + std::to_string(getpid()) + ".yaml";
  Write(path, kV1);
  auto v1 = Validator::FromFile(path);
  ASSERT_TRUE(v1.ok());
  RulesWatcher watcher(path, (*v1)->rules().sha256, /*settle_ms=*/0);
  EXPECT_FALSE(watcher.Poll().has_value());

  Write(path, kV2);
  auto change = watcher.Poll();
  ASSERT_TRUE(change.has_value());
  ASSERT_NE(change->validator, nullptr) << change->error;
  EXPECT_NE(change->validator->rules().sha256, (*v1)->rules().sha256);
  EXPECT_FALSE(watcher.Poll().has_value());

  Write(path, "griffin: 1\ndataset: w\ncolumns:\n  n: {type: nope}\n");
  change = watcher.Poll();
  ASSERT_TRUE(change.has_value());
  EXPECT_EQ(change->validator, nullptr);
  EXPECT_NE(change->error.find(path), std::string::npos) << change->error;
  EXPECT_FALSE(watcher.Poll().has_value());  // reported once
  std::remove(path.c_str());
}

TEST(RulesWatcher, WaitsForTheFileToSettle) {
  std::string path = "/tmp/griffin_rules_watcher_settle_" + std::to_string(getpid()) + ".yaml";
  Write(path, kV1);
  RulesWatcher watcher(path, "", /*settle_ms=*/60000);
  Write(path, kV2);
  EXPECT_FALSE(watcher.Poll().has_value());  // written just now
  std::remove(path.c_str());
}

}  // namespace
}  // namespace griffin::kafka
