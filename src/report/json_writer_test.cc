#include "report/json_writer.h"

#include <cmath>

#include <gtest/gtest.h>

namespace griffin {
namespace {

std::string Quote(std::string_view text) {
  std::string out;
  AppendJsonString(text, &out);
  return out;
}

TEST(JsonWriterTest, EscapesControlQuotesAndInvalidUtf8) {
  EXPECT_EQ(Quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(Quote("line\nnext\t\x01"), "\"line\\nnext\\t\\u0001\"");
  EXPECT_EQ(Quote("caf\xC3\xA9"), "\"caf\xC3\xA9\"");
  EXPECT_EQ(Quote("bad\xFF"), "\"bad\xEF\xBF\xBD\"");
  EXPECT_EQ(Quote("\xE2\x82"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");  // truncated sequence
}

TEST(JsonWriterTest, NonFiniteNumbersAreNull) {
  EXPECT_TRUE(JsonScalar::Number(NAN).is_null());
  EXPECT_TRUE(JsonScalar::Number(INFINITY).is_null());
  EXPECT_EQ(JsonScalar::Number(0.1).text, "0.1");
}

TEST(JsonWriterTest, ContractFieldsInOrder) {
  Report report;
  report.griffin_version = "0.1.0";
  report.run_id = "r";
  report.dataset = "d";
  report.inputs = {"a.csv"};
  report.rows = 10;
  report.bad_rows = 1;
  report.quality_score = 0.9;
  report.passed = false;
  CheckReport check;
  check.name = "amount.min";
  check.column = "amount";
  check.check = "min";
  check.severity = "error";
  check.evaluated = 10;
  check.violations = 1;
  check.pass_rate = 0.9;
  check.passed = false;
  report.checks.push_back(check);
  CheckReport table;
  table.name = "table.row_count";
  table.check = "row_count";
  table.severity = "error";
  table.is_table = true;
  table.observed = JsonScalar::Integer(10);
  report.checks.push_back(table);
  ViolationReport v;
  v.row = 3;
  v.column = "amount";
  v.check = "amount.min";
  v.value = JsonScalar::String("-5.0");
  v.message = "amount -5.0 is below min 0";
  report.violations.push_back(v);
  std::string json = ReportToJson(report);
  const char* keys[] = {"\"griffin_version\"", "\"run_id\"", "\"dataset\"", "\"inputs\"", "\"rules_sha256\"",
                        "\"rows\"", "\"bad_rows\"", "\"malformed_rows\"", "\"quality_score\"", "\"passed\"",
                        "\"schema_errors\"", "\"checks\"", "\"violations\"", "\"violations_truncated\"",
                        "\"elapsed_s\""};
  size_t last = 0;
  for (const char* key : keys) {
    size_t pos = json.find(key);
    ASSERT_NE(pos, std::string::npos) << key;
    EXPECT_GT(pos, last) << key;
    last = pos;
  }
  EXPECT_NE(json.find("\"column\": null, \"check\": \"row_count\", \"severity\": \"error\", \"observed\": 10"),
            std::string::npos);
  EXPECT_NE(json.find("{\"row\": 3, \"column\": \"amount\", \"check\": \"amount.min\", \"value\": \"-5.0\""),
            std::string::npos);
}

TEST(JsonWriterTest, TableVersionsOnlyWhenATableWasReadOrWritten) {
  Report report;
  report.inputs = {"a.csv"};
  EXPECT_EQ(ReportToJson(report).find("table_versions"), std::string::npos);
  report.table_versions = {{"/t@v=3", "input", 3}, {"delta:/clean", "clean", 0}};
  const std::string json = ReportToJson(report);
  EXPECT_NE(json.find(R"("table_versions": [{"table": "/t@v=3", "role": "input", "version": 3}, )"
                      R"({"table": "delta:/clean", "role": "clean", "version": 0}])"),
            std::string::npos)
      << json;
  EXPECT_GT(json.find("table_versions"), json.find("elapsed_s"));  // additive: after the contract's fields
}

// An incremental run's report says what it read, and each table check its
// scope; other runs have neither key (additive fields).
TEST(JsonWriterTest, IncrementAndScopeOnlyForIncrementalRuns) {
  Report report;
  CheckReport table;
  table.name = "table.row_count";
  table.check = "row_count";
  table.severity = "error";
  table.is_table = true;
  table.observed = JsonScalar::Integer(3);
  report.checks.push_back(table);
  EXPECT_EQ(ReportToJson(report).find("scope"), std::string::npos);
  EXPECT_EQ(ReportToJson(report).find("increment"), std::string::npos);
  report.checks[0].scope = "increment";
  report.increment = IncrementReport{"updated_at", "2024-01-01", std::nullopt, "increment"};
  const std::string json = ReportToJson(report);
  EXPECT_NE(json.find("\"observed\": 3, \"passed\": true, \"scope\": \"increment\"}"), std::string::npos) << json;
  EXPECT_NE(json.find("\"increment\": {\"column\": \"updated_at\", \"after\": \"2024-01-01\", \"through\": null, "
                      "\"scope\": \"increment\"}"),
            std::string::npos)
      << json;
}

}  // namespace
}  // namespace griffin
