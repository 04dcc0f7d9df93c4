#include "report/report_reader.h"

#include <gtest/gtest.h>

#include "report/json_writer.h"

namespace griffin {
namespace {

TEST(ReportReaderTest, RoundTripsTheJsonReport) {
  Report report;
  report.griffin_version = "0.1.0";
  report.run_id = "abc";
  report.dataset = "d";
  report.inputs = {"a.csv", "b.csv"};
  report.rules_sha256 = "ff";
  report.rows = 10;
  report.bad_rows = 2;
  report.malformed_rows = 1;
  report.quality_score = 0.8;
  report.score_min = 0.5;
  report.passed = false;
  report.schema_errors.push_back({"x", "required column 'x' is missing"});
  CheckReport row_check;
  row_check.name = "a.min";
  row_check.column = "a";
  row_check.check = "min";
  row_check.severity = "warn";
  row_check.evaluated = 9;
  row_check.violations = 1;
  row_check.pass_rate = 8.0 / 9;
  row_check.mostly = 0.5;
  row_check.message = "custom";
  row_check.ran_in = "database";  // --mode pushdown says where each check ran
  row_check.ran_in_reason = "compiled to postgresql SQL";
  report.checks.push_back(row_check);
  CheckReport table;
  table.name = "a.mean";
  table.column = "a";
  table.check = "mean";
  table.severity = "error";
  table.is_table = true;
  table.observed = JsonScalar::Null();
  table.observed_text = "nan";
  table.min_bound = JsonScalar::Integer(1);
  table.passed = false;
  report.checks.push_back(table);
  CheckReport drift;  // a history check: its note and detail object come back
  drift.name = "a.drift";
  drift.column = "a";
  drift.check = "drift";
  drift.severity = "error";
  drift.is_table = true;
  drift.observed = JsonScalar::Null();
  drift.observed_text = "null";
  drift.max_bound = JsonScalar::Number(0.1);
  drift.note = "nothing to compare with yet";
  drift.detail_key = "drift";
  drift.detail_json = R"({"measure":null,"baseline":"last_passed","baseline_run_id":null,"moved":[]})";
  report.checks.push_back(drift);
  ViolationReport v;
  v.row = 3;
  v.column = "a";
  v.check = "a.min";
  v.value = JsonScalar::String("-1");
  v.message = "a -1 is below min 0";
  report.violations.push_back(v);
  ViolationReport malformed;
  malformed.row = 4;
  malformed.check = "malformed";
  malformed.value = JsonScalar::String("x,y");
  malformed.message = "record has 2 fields, expected 3";
  report.violations.push_back(malformed);
  report.violations_truncated = true;
  report.schema_changes = {"a.csv: column 'z' added"};
  const std::string json = ReportToJson(report);
  auto back = ReportFromJson(json, "stored");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(ReportToJson(*back), json);
  EXPECT_NE(json.find(R"("ran_in": "database", "ran_in_reason": "compiled to postgresql SQL")"), std::string::npos);
}

TEST(ReportReaderTest, RejectsOtherJson) {
  EXPECT_FALSE(ReportFromJson("[1, 2]", "x").ok());
  EXPECT_FALSE(ReportFromJson("{\"a\": 1}", "x").ok());
  EXPECT_FALSE(ReportFromJson("{", "x").ok());
}

}  // namespace
}  // namespace griffin
