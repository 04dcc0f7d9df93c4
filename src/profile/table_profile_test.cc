#include "profile/table_profile.h"

#include <gtest/gtest.h>

#include <climits>
#include <cstring>

#include "exec/test_batches.h"
#include "profile/profile_facts.h"

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

// Found by profile_state_fuzz: counts that cannot be are refused (a
// malformed_rows of INT64_MIN overflowed rows - malformed; NaNs counted past
// the values), and a histogram stays in range over a damaged-but-accepted
// state whose min lies just under its max, above most values (the bin index
// of a value far below min overflowed int).
TEST(TableProfileTest, StatesWhoseCountsCannotBeAreRefusedAndHistogramsStayInRange) {
  Batch batch;
  AddTextColumn(&batch, "n", {"1", "2", "30", "4"});
  TableProfile profile;
  profile.AddBatch(batch);
  const std::string bytes = profile.Serialize();
  uint64_t magic_size;
  std::memcpy(&magic_size, bytes.data(), 8);
  const size_t rows = 8 + magic_size, malformed = rows + 8;
  const size_t column = malformed + 8 + 8 + 8 + 1;   // the column count, the name "n"
  const size_t reads_as = column + 16, numbers = reads_as + 8 * kReadTypes;
  const size_t nan = numbers + 8, min = numbers + 8 * 8 + 8 * 2;
  auto with = [&](size_t offset, auto value) {
    std::string patched = bytes;
    std::memcpy(patched.data() + offset, &value, 8);
    return patched;
  };
  ASSERT_TRUE(TableProfile::Deserialize(with(nan, int64_t{0}), "p").ok());
  for (const std::string& bad : {with(malformed, INT64_MIN), with(malformed, int64_t{5}), with(nan, int64_t{1}),
                                 with(rows, int64_t{1} << 60)}) {
    auto refused = TableProfile::Deserialize(bad, "p");
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.status().message(), "p: corrupt Griffin profile state");
  }
  auto high_min = TableProfile::Deserialize(with(min, 30 - 1e-9), "p");   // max is 30: bins 5e-11 wide
  ASSERT_TRUE(high_min.ok()) << high_min.status().message();
  std::vector<HistogramBin> bins = NumberHistogram(high_min->columns()[0].second);
  ASSERT_EQ(bins.size(), 20u);
  int64_t counted = 0;
  for (const HistogramBin& bin : bins) counted += bin.count;
  EXPECT_EQ(counted, 4);
  EXPECT_EQ(bins[0].count, 3);   // 1, 2 and 4, far below min, in the first bin
}

}  // namespace
}  // namespace griffin
