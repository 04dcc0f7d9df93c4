#include "profile/column_state.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace griffin {
namespace {

ColumnState Texts(const std::vector<std::string>& values, const std::vector<uint8_t>& nulls = {}) {
  std::vector<std::string_view> views(values.begin(), values.end());
  std::vector<uint8_t> is_null = nulls.empty() ? std::vector<uint8_t>(values.size(), 0) : nulls;
  ColumnState state;
  state.AddText(views.data(), is_null.data(), nullptr, static_cast<int64_t>(views.size()));
  return state;
}

std::string Bytes(const ColumnState& state) {
  ByteWriter out;
  state.Serialize(&out);
  return out.Take();
}

TEST(ColumnStateTest, CountsWhatEachValueReadsAs) {
  const ColumnState s = Texts({"1", "2.5", "2024-01-02", "2024-01-02T03:04:05Z", "yes", "x", ""}, {0, 0, 0, 0, 0, 0, 1});
  EXPECT_EQ(s.rows(), 7);
  EXPECT_EQ(s.nulls(), 1);
  EXPECT_EQ(s.reads_as(ReadType::kInt64), 1);
  EXPECT_EQ(s.reads_as(ReadType::kFloat64), 2);
  EXPECT_EQ(s.reads_as(ReadType::kBool), 2);  // "1" and "yes"
  EXPECT_EQ(s.reads_as(ReadType::kDate), 1);
  EXPECT_EQ(s.reads_as(ReadType::kTimestamp), 1);
  EXPECT_EQ(s.times(), 2);
  EXPECT_EQ(s.distinct(), 6);
  EXPECT_EQ(s.text().min_length, 1);
  EXPECT_EQ(s.text().max_length, 20);
}

TEST(ColumnStateTest, NonFiniteNumbersAreCountedApart) {
  const ColumnState s = Texts({"nan", "inf", "-inf", "1", "3", "1e308"});
  EXPECT_EQ(s.numbers().nan, 1);
  EXPECT_EQ(s.numbers().pos_inf, 1);
  EXPECT_EQ(s.numbers().neg_inf, 1);
  EXPECT_EQ(s.numbers().finite, 3);
  EXPECT_EQ(s.numbers().min, -INFINITY);
  EXPECT_EQ(s.numbers().max, INFINITY);
  EXPECT_EQ(s.numbers().int_min, 1);
  EXPECT_EQ(s.numbers().int_max, 3);
  EXPECT_NEAR(s.numbers().mean, 1e308 / 3, 1e293);
}

TEST(ColumnStateTest, MergedPartsEqualTheWholeAndSerializeTheSame) {
  std::vector<std::string> all;
  for (int i = 0; i < 5000; ++i) all.push_back(std::to_string(i % 97) + (i % 5 ? "" : ".5"));
  const ColumnState whole = Texts(all);
  ColumnState merged = Texts({all.begin(), all.begin() + 1234});
  merged.Merge(Texts({all.begin() + 1234, all.begin() + 4000}));
  merged.Merge(Texts({all.begin() + 4000, all.end()}));
  EXPECT_EQ(merged.rows(), whole.rows());
  EXPECT_EQ(merged.distinct(), whole.distinct());
  EXPECT_EQ(merged.numbers().min, whole.numbers().min);
  EXPECT_EQ(merged.numbers().max, whole.numbers().max);
  EXPECT_NEAR(merged.numbers().mean, whole.numbers().mean, 1e-12);
  EXPECT_NEAR(merged.numbers().m2, whole.numbers().m2, 1e-6);
  EXPECT_EQ(merged.number_sketch().Quantile(0.5), whole.number_sketch().Quantile(0.5));
  EXPECT_EQ(merged.top_values().Top(5)[0].count, whole.top_values().Top(5)[0].count);

  ColumnState back;
  const std::string bytes = Bytes(merged);
  ByteReader in(bytes);
  ASSERT_TRUE(back.Deserialize(&in));
  EXPECT_EQ(Bytes(back), bytes);
}

TEST(ColumnStateTest, CorruptBytesAreRefused) {
  const std::string bytes = Bytes(Texts({"a", "b"}));
  for (size_t cut : {size_t{0}, size_t{5}, bytes.size() / 2, bytes.size() - 1}) {
    ColumnState back;
    ByteReader in(std::string_view(bytes).substr(0, cut));
    EXPECT_FALSE(back.Deserialize(&in)) << cut;
  }
  std::string lying = bytes;
  lying[8] = 9;  // nulls > rows
  ColumnState back;
  ByteReader in(lying);
  EXPECT_FALSE(back.Deserialize(&in));
}

TEST(ColumnStateTest, TypedValuesFeedTheirOwnStatistics) {
  TypedColumn column;
  column.type = ValueType::kDate;
  column.num_rows = 3;
  column.valid = {1, 0, 1};
  column.owned_ints = {0, 5, 19723};
  column.ints = column.owned_ints.data();
  ColumnState s;
  s.AddTyped(column);
  EXPECT_EQ(s.nulls(), 1);
  EXPECT_EQ(s.reads_as(ReadType::kDate), 2);
  EXPECT_EQ(s.time_max(), 19723LL * 86400 * 1000000);
  EXPECT_EQ(s.top_values().Top(1)[0].value, "1970-01-01");
}

}  // namespace
}  // namespace griffin
