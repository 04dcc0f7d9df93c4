#include "profile/profile_text.h"

#include <gtest/gtest.h>

#include "exec/test_batches.h"

namespace griffin {
namespace {

TEST(ProfileTextTest, OneBlockPerColumn) {
  Batch batch;
  testing::AddTextColumn(&batch, "code", {"AB12", "AB13", std::nullopt});
  TableProfile profile;
  profile.AddBatch(batch);
  const std::string text = ProfileToText(profile);
  EXPECT_EQ(text.rfind("3 rows, 1 column\n", 0), 0u);
  EXPECT_NE(text.find("code  string (100.0%)"), std::string::npos);
  EXPECT_NE(text.find("nulls 1 (33.3%), distinct 2"), std::string::npos);
  EXPECT_NE(text.find("pattern AA99 (2)"), std::string::npos);
}

}  // namespace
}  // namespace griffin
