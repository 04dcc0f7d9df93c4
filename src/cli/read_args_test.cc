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

TEST(ReadArgsTest, MakeReadOptionsChecksCountsAndFormat) {
  ReadArgs args;
  args.batch_rows = 10;
  args.null_values = {"-"};
  auto options = MakeReadOptions(args);
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(options->batch_rows, 10);
  EXPECT_EQ(options->null_values, std::vector<std::string>{"-"});
  args.batch_rows = 0;
  EXPECT_EQ(MakeReadOptions(args).status().message(), "--batch-rows: must be at least 1");
  args.batch_rows = 10;
  args.threads = -1;
  EXPECT_EQ(MakeReadOptions(args).status().code(), StatusCode::kUsageError);
}

}  // namespace
}  // namespace griffin
