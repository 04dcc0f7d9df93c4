#include "cli/read_args.h"

#include <gtest/gtest.h>

namespace griffin {
namespace {

TEST(ReadArgsTest, AppliesGivenOptionsOnly) {
  ReadOptions options;
  ASSERT_TRUE(ApplyReadArgs("tsv", "tab", true, {"NA"}, &options).ok());
  EXPECT_EQ(options.format, InputFormat::kTsv);
  EXPECT_EQ(options.delimiter, '\t');
  EXPECT_FALSE(options.header);
  EXPECT_EQ(options.null_values, std::vector<std::string>{"NA"});
  ReadOptions untouched;
  ASSERT_TRUE(ApplyReadArgs("", "", false, {}, &untouched).ok());
  EXPECT_FALSE(untouched.format.has_value());
  EXPECT_TRUE(untouched.header);
}

TEST(ReadArgsTest, BadOptionsAreUsageErrors) {
  ReadOptions options;
  EXPECT_EQ(ApplyReadArgs("xml", "", false, {}, &options).code(), StatusCode::kUsageError);
  EXPECT_EQ(ApplyReadArgs("", ";;", false, {}, &options).code(), StatusCode::kUsageError);
  EXPECT_EQ(ApplyReadArgs("", "\n", false, {}, &options).code(), StatusCode::kUsageError);
}

}  // namespace
}  // namespace griffin
