#include "store/schema_drift.h"

#include <gtest/gtest.h>

namespace griffin {
namespace {

TEST(SchemaDriftTest, AddedRemovedAndRetyped) {
  const std::string before = R"([{"name": "a", "type": "int64"}, {"name": "b", "type": "int64"}])";
  const std::string after = R"([{"name": "b", "type": "string"}, {"name": "c", "type": "double"}])";
  EXPECT_EQ(DescribeSchemaChanges("in.parquet", before, after),
            (std::vector<std::string>{"in.parquet: column 'b' changed type from int64 to string",
                                      "in.parquet: column 'c' added", "in.parquet: column 'a' removed"}));
}

TEST(SchemaDriftTest, SameSchemaOrGarbageGivesNothing) {
  const std::string schema = R"([{"name": "a", "type": "text"}])";
  EXPECT_TRUE(DescribeSchemaChanges("x", schema, schema).empty());
  EXPECT_TRUE(DescribeSchemaChanges("x", "not json", schema).empty());
}

}  // namespace
}  // namespace griffin
