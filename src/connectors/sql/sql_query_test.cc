#include "connectors/sql/sql_query.h"

#include <gtest/gtest.h>

#include <arrow/array/builder_binary.h>
#include <arrow/array/builder_primitive.h>

namespace griffin::sql {
namespace {

template <typename Builder, typename Value>
std::shared_ptr<arrow::Array> ArrayOf(std::vector<std::optional<Value>> values) {
  Builder builder;
  for (const auto& value : values) {
    if (value) EXPECT_TRUE(builder.Append(*value).ok());
    else EXPECT_TRUE(builder.AppendNull().ok());
  }
  return builder.Finish().ValueOrDie();
}

TEST(SqlQuery, IntegerCellsOfEveryIntegerTypeAndText) {
  auto ints = ArrayOf<arrow::Int32Builder, int32_t>({7, std::nullopt});
  EXPECT_EQ(*IntegerCell(*ints, 0, "ctx"), std::optional<__int128>(7));
  EXPECT_EQ(*IntegerCell(*ints, 1, "ctx"), std::optional<__int128>());
  // An exact sum past int64, as PostgreSQL and DuckDB give it in text.
  auto text = ArrayOf<arrow::StringBuilder, std::string>({"18446744073709551609", "-5", "1.5"});
  const __int128 big = (static_cast<__int128>(1) << 64) - 7;
  EXPECT_EQ(*IntegerCell(*text, 0, "ctx"), std::optional<__int128>(big));
  EXPECT_EQ(*IntegerCell(*text, 1, "ctx"), std::optional<__int128>(-5));
  auto fraction = IntegerCell(*text, 2, "ctx");
  ASSERT_FALSE(fraction.ok());
  EXPECT_EQ(fraction.status().message(), "ctx: expected an integer, got '1.5'");
  auto doubles = ArrayOf<arrow::DoubleBuilder, double>({2.5});
  EXPECT_FALSE(IntegerCell(*doubles, 0, "ctx").ok());
  EXPECT_EQ(*DoubleCell(*doubles, 0, "ctx"), std::optional<double>(2.5));
  EXPECT_FALSE(DoubleCell(*ints, 0, "ctx").ok());
}

}  // namespace
}  // namespace griffin::sql
