#include "profile/rule_suggester.h"

#include <gtest/gtest.h>

#include "exec/test_batches.h"
#include "rules/rule_loader.h"

namespace griffin {
namespace {

using testing::AddTextColumn;

TableProfile Profile() {
  Batch batch;
  AddTextColumn(&batch, "id", {"1", "2", "3", "4", "5", "6"});
  AddTextColumn(&batch, "kind", {"a", "b", "a", "b", "a", "it's"});
  AddTextColumn(&batch, "amount", {"1.5", "2", "-3.25", "nan", "4", "5"});
  AddTextColumn(&batch, "day", {"2024-01-02", std::nullopt, "2024-03-04", "2023-12-31", "2024-01-01", "2024-01-05"});
  AddTextColumn(&batch, "code", {"AB12", "CD34", "EF56", "GH78", "IJ90", "KL11"});
  AddTextColumn(&batch, "mail", {"a@b.co", "c@d.org", "e@f.net", "g@h.io", "i@j.de", "k@l.fr"});
  AddTextColumn(&batch, "weird name", {std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt});
  TableProfile profile;
  profile.AddBatch(batch);
  return profile;
}

TEST(RuleSuggesterTest, SuggestedFileLoadsWithTheExpectedRules) {
  SuggestOptions options;
  options.dataset = "my data";
  options.inputs = {"in.csv"};
  const std::string yaml = SuggestRules(Profile(), options);
  auto rules = LoadRuleText(yaml, "suggested.yaml");
  ASSERT_TRUE(rules.ok()) << rules.status().message() << "\n" << yaml;
  EXPECT_EQ(rules->dataset, "my data");
  EXPECT_NE(yaml.find("    type: int64"), std::string::npos);
  EXPECT_NE(yaml.find("unique: true"), std::string::npos);
  EXPECT_NE(yaml.find("min: 1 "), std::string::npos);
  EXPECT_NE(yaml.find("in: [a, b, \"it's\"]"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("type: date"), std::string::npos);
  EXPECT_NE(yaml.find("min: \"2023-12-31\""), std::string::npos);
  EXPECT_NE(yaml.find("regex: \"^[A-Z]{2}[0-9]{2}$\""), std::string::npos);
  EXPECT_NE(yaml.find("every value is an email"), std::string::npos);
  EXPECT_NE(yaml.find("null_fraction: {column: day, max: "), std::string::npos);
  EXPECT_NE(yaml.find("# \"weird name\": every value is null"), std::string::npos);
  // NaN in amount: no bounds (NaN fails min and max), no `finite`.
  EXPECT_EQ(yaml.find("finite: true"), std::string::npos);
  for (const ColumnRule& column : rules->columns) EXPECT_NE(column.name, "weird name");
}

TEST(RuleSuggesterTest, YamlScalarsQuoteWhatAReaderCouldMistake) {
  EXPECT_EQ(YamlScalar("amount"), "amount");
  EXPECT_EQ(YamlScalar("yes"), "\"yes\"");
  EXPECT_EQ(YamlScalar("007"), "\"007\"");
  EXPECT_EQ(YamlScalar("a\"b\\c\td"), "\"a\\\"b\\\\c\\x09d\"");
  EXPECT_EQ(DatasetNameFor("data/day1.csv.gz"), "day1");
  EXPECT_EQ(DatasetNameFor("-"), "data");
}

}  // namespace
}  // namespace griffin
