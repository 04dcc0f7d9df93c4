#include "util/value_type.h"

#include <gtest/gtest.h>

namespace griffin {
namespace {

TEST(ValueType, CanonicalNamesRoundTrip) {
  for (ValueType t : {ValueType::kString, ValueType::kInt64, ValueType::kFloat64,
                      ValueType::kBool, ValueType::kDate, ValueType::kTimestamp}) {
    EXPECT_EQ(ParseValueTypeName(ValueTypeName(t)), t);
  }
  EXPECT_STREQ(ValueTypeName(ValueType::kFloat64), "float64");
  EXPECT_STREQ(ValueTypeName(ValueType::kTimestamp), "timestamp");
}

TEST(ValueType, Aliases) {
  EXPECT_EQ(ParseValueTypeName("int"), ValueType::kInt64);
  EXPECT_EQ(ParseValueTypeName("float"), ValueType::kFloat64);
  EXPECT_EQ(ParseValueTypeName("double"), ValueType::kFloat64);
}

TEST(ValueType, UnknownNames) {
  for (const char* name : {"", "Int64", "integer", "str", "datetime", "int32", " int"}) {
    EXPECT_EQ(ParseValueTypeName(name), std::nullopt) << name;
  }
}

TEST(ValueType, IntegerBacked) {
  EXPECT_TRUE(IsIntegerBacked(ValueType::kInt64));
  EXPECT_TRUE(IsIntegerBacked(ValueType::kBool));
  EXPECT_TRUE(IsIntegerBacked(ValueType::kDate));
  EXPECT_TRUE(IsIntegerBacked(ValueType::kTimestamp));
  EXPECT_FALSE(IsIntegerBacked(ValueType::kString));
  EXPECT_FALSE(IsIntegerBacked(ValueType::kFloat64));
}

}  // namespace
}  // namespace griffin
