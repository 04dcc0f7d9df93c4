#include "plan/read_options.h"

#include <gtest/gtest.h>

#include "rules/rule_loader.h"

namespace griffin {
namespace {

TEST(ReadOptionsTest, SourceSectionAndReferencedColumns) {
  auto rules = LoadRuleText(R"(griffin: 1
dataset: d
source:
  format: tsv
  header: false
  null_values: ["NA"]
columns:
  a:
    type: int64
rows:
  - name: r
    expr: "b > 1"
)", "r.yaml");
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  auto plan = Plan::Compile(*rules, 0);
  ASSERT_TRUE(plan.ok());
  ReadOptions options = ReadOptionsFromRules(**plan, 77);
  EXPECT_EQ(options.format, InputFormat::kTsv);
  EXPECT_FALSE(options.header);
  EXPECT_EQ(options.null_values, std::vector<std::string>{"NA"});
  EXPECT_EQ(options.batch_rows, 77);
  EXPECT_EQ(options.json_columns, (std::vector<std::string>{"a", "b"}));
}

}  // namespace
}  // namespace griffin
