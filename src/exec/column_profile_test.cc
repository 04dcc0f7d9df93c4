#include "exec/column_profile.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "util/text_cut.h"

namespace griffin {
namespace {

TypedColumn Strings(const std::vector<std::string_view>& values) {
  TypedColumn column;
  column.type = ValueType::kString;
  column.num_rows = static_cast<int64_t>(values.size());
  column.valid.assign(values.size(), 1);
  column.owned_strings = values;
  column.strings = column.owned_strings.data();
  return column;
}

TEST(ColumnProfileTest, ShortStringExtremesAreWhole) {
  ColumnProfile profile;
  profile.AddBatch(Strings({"m", "b", "x"}), nullptr);
  EXPECT_EQ(profile.MinText(), "b");
  EXPECT_EQ(profile.MaxText(), "x");
}

TEST(ColumnProfileTest, LongStringExtremesAreKeptCut) {
  const std::string huge_max = "z" + std::string(5 * kMaxShownBytes, 'a');
  const std::string huge_min = std::string(3 * kMaxShownBytes, 'a');
  ColumnProfile first, second;
  first.AddBatch(Strings({"m", huge_max}), nullptr);
  const TypedColumn second_column = Strings({huge_min, "n"});
  second.AddBatch(second_column, nullptr);
  first.Merge(second, second_column, nullptr);
  EXPECT_EQ(first.MaxText(), CutText(huge_max));
  EXPECT_EQ(first.MinText(), CutText(huge_min));
  EXPECT_LE(first.MaxText()->size(), kMaxShownBytes + 32);
}

TEST(ColumnProfileTest, ExtremesDifferingPastTheKeptPrefixKeepTheFirstSeen) {
  // Same first kMaxShownBytes + 1 bytes: the order past them is not kept; the
  // prefix (what is shown) is the same whichever wins.
  const std::string base(kMaxShownBytes + 1, 'q');
  ColumnProfile profile;
  profile.AddBatch(Strings({base + "b", base + "a"}), nullptr);
  EXPECT_EQ(profile.MinText(), CutText(base + "b"));
  EXPECT_EQ(profile.MaxText(), CutText(base + "b"));
}

TypedColumn Ints(const std::vector<int64_t>& values, const std::vector<uint8_t>& valid) {
  TypedColumn column;
  column.type = ValueType::kInt64;
  column.num_rows = static_cast<int64_t>(values.size());
  column.owned_ints = values;
  column.ints = column.owned_ints.data();
  column.valid = valid;
  return column;
}

// The profile of `columns` as batches merged in order, as the merger does.
ColumnProfile Profile(const std::vector<TypedColumn>& columns) {
  ColumnProfile total;
  for (const TypedColumn& column : columns) {
    ColumnProfile batch;
    batch.AddBatch(column, nullptr);
    total.Merge(batch, column, nullptr);
  }
  return total;
}

TEST(ColumnProfileTest, CountsNullsExtremesAndExactDistinct) {
  ColumnProfile profile = Profile({Ints({3, 1, 3, 0}, {1, 1, 1, 0}), Ints({7, 1}, {1, 1})});
  EXPECT_EQ(profile.count(), 5);
  EXPECT_EQ(profile.nulls(), 1);
  EXPECT_EQ(profile.MinText(), "1");
  EXPECT_EQ(profile.MaxText(), "7");
  EXPECT_EQ(profile.distinct(), 3);
  EXPECT_TRUE(profile.distinct_exact());
}

// The store once recorded more distinct values than rows (HyperLogLog at
// 3,376 rows): exact up to 100,000, whatever the batch size.
TEST(ColumnProfileTest, DistinctIsExactAndNeverAboveTheCount) {
  for (int64_t batch_rows : {3376, 1000, 7}) {
    std::vector<TypedColumn> batches;
    for (int64_t start = 0; start < 3376; start += batch_rows) {
      std::vector<int64_t> values;
      for (int64_t v = start; v < std::min<int64_t>(start + batch_rows, 3376); ++v) values.push_back(v * 7919);
      batches.push_back(Ints(values, std::vector<uint8_t>(values.size(), 1)));
    }
    ColumnProfile profile = Profile(batches);
    EXPECT_EQ(profile.distinct(), 3376) << batch_rows;
    EXPECT_EQ(profile.count(), 3376);
  }
  std::vector<int64_t> many(120000);
  for (size_t i = 0; i < many.size(); ++i) many[i] = static_cast<int64_t>(i);
  ColumnProfile beyond = Profile({Ints(many, std::vector<uint8_t>(many.size(), 1))});
  EXPECT_FALSE(beyond.distinct_exact());
  EXPECT_LE(beyond.distinct(), 120000);
  EXPECT_NEAR(static_cast<double>(beyond.distinct()), 120000.0, 120000.0 * 0.05);
}

TEST(ColumnProfileTest, MalformedRowsAreSkippedWhenReread) {
  // 5,000 distinct values in one batch (more than a batch keeps), 2 malformed.
  std::vector<int64_t> values(5000);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(i);
  TypedColumn column = Ints(values, std::vector<uint8_t>(values.size(), 1));
  std::vector<uint8_t> malformed(values.size(), 0);
  malformed[10] = malformed[20] = 1;
  ColumnProfile batch, total;
  batch.AddBatch(column, malformed.data());
  total.Merge(batch, column, malformed.data());
  EXPECT_EQ(total.count(), 4998);
  EXPECT_EQ(total.distinct(), 4998);
  EXPECT_TRUE(total.distinct_exact());
}

}  // namespace
}  // namespace griffin
