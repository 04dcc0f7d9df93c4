#include "profile/profile_json.h"

#include <gtest/gtest.h>

#include "exec/test_batches.h"

namespace griffin {
namespace {

TEST(ProfileJsonTest, WritesEveryColumnSectionAndNonFiniteAsText) {
  Batch batch;
  testing::AddTextColumn(&batch, "x", {"1", "inf", std::nullopt, "a\"b"});
  TableProfile profile;
  profile.AddBatch(batch);
  const std::string json = ProfileToJson(profile, {"in.csv"});
  EXPECT_NE(json.find("\"inputs\": [\"in.csv\"]"), std::string::npos);
  EXPECT_NE(json.find("\"name\": \"x\""), std::string::npos);
  EXPECT_NE(json.find("\"max\": \"inf\""), std::string::npos);
  EXPECT_NE(json.find("\"value\": \"a\\\"b\""), std::string::npos);
  EXPECT_NE(json.find("\"nulls\": 1"), std::string::npos);
  EXPECT_NE(json.find("\"times\": null"), std::string::npos);
  EXPECT_EQ(json.back(), '\n');
}

}  // namespace
}  // namespace griffin
