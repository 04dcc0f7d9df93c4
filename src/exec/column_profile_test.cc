#include "exec/column_profile.h"

#include <gtest/gtest.h>

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
  second.AddBatch(Strings({huge_min, "n"}), nullptr);
  first.Merge(second);
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

}  // namespace
}  // namespace griffin
