#include "profile/table_profile.h"

#include <gtest/gtest.h>

#include "exec/test_batches.h"

namespace griffin {
namespace {

using testing::AddTextColumn;

TEST(TableProfileTest, ColumnsMissingFromAPartCountItsRowsAsNulls) {
  Batch first, second;
  AddTextColumn(&first, "a", {"1", "2"});
  AddTextColumn(&second, "b", {"x", std::nullopt, "y"});
  TableProfile left, right;
  left.AddBatch(first);
  right.AddBatch(second);
  left.Merge(right);
  ASSERT_EQ(left.columns().size(), 2u);
  EXPECT_EQ(left.rows(), 5);
  EXPECT_EQ(left.columns()[0].second.rows(), 5);
  EXPECT_EQ(left.columns()[0].second.nulls(), 3);
  EXPECT_EQ(left.columns()[1].first, "b");
  EXPECT_EQ(left.columns()[1].second.nulls(), 3);  // 2 missing + 1 null
}

TEST(TableProfileTest, MalformedRowsAreCountedNotRead) {
  Batch batch;
  AddTextColumn(&batch, "a", {"1", "", "3"});
  batch.malformed = {0, 1, 0};
  TableProfile profile;
  profile.AddBatch(batch);
  EXPECT_EQ(profile.rows(), 3);
  EXPECT_EQ(profile.malformed_rows(), 1);
  EXPECT_EQ(profile.columns()[0].second.rows(), 2);
}

TEST(TableProfileTest, SerializedProfileRoundTripsAndCorruptBytesAreAnInputError) {
  Batch batch;
  AddTextColumn(&batch, "a", {"1", "2"});
  AddTextColumn(&batch, "b", {"x", std::nullopt});
  TableProfile profile;
  profile.AddBatch(batch);
  const std::string bytes = profile.Serialize();
  auto back = TableProfile::Deserialize(bytes, "p.state");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->Serialize(), bytes);
  auto cut = TableProfile::Deserialize(std::string_view(bytes).substr(0, bytes.size() - 3), "p.state");
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(cut.status().code(), StatusCode::kInputError);
  EXPECT_EQ(cut.status().message(), "p.state: corrupt Griffin profile state");
  auto other = TableProfile::Deserialize("rows,cols\n1,2\n", "x.csv");
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.status().message().find("not a Griffin profile state"), std::string::npos);
}

}  // namespace
}  // namespace griffin
