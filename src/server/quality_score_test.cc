#include "server/quality_score.h"

#include <gtest/gtest.h>

namespace griffin::server {
namespace {

DataPart Data(double score, bool passed, std::vector<std::string> reasons = {}) {
  DataPart data;
  data.source = DataPart::Source::kRecords;
  data.score.quality_score = score;
  data.score.passed = passed;
  data.score.reasons = std::move(reasons);
  return data;
}

TelemetryVerdict Telemetry(int evaluated, int failed, std::vector<std::string> reasons = {}) {
  TelemetryVerdict verdict;
  verdict.evaluated = evaluated;
  verdict.failed = failed;
  verdict.reasons = std::move(reasons);
  return verdict;
}

TEST(QualityScoreTest, ScoreIsDataTimesTelemetry) {
  MetricsAnswer answer = CombineScores(Data(0.9, true), Telemetry(4, 1, {"loss.spike: ..."}), nullptr);
  EXPECT_DOUBLE_EQ(answer.quality_score, 0.9 * 0.75);
  EXPECT_FALSE(answer.passed);  // an error telemetry check failed
  EXPECT_EQ(answer.reasons, (std::vector<std::string>{"loss.spike: ..."}));
  EXPECT_EQ(answer.data_score, 0.9);
  EXPECT_EQ(answer.telemetry_score, 0.75);

  MetricsAnswer clean = CombineScores(Data(0.8, true), Telemetry(2, 0), nullptr);
  EXPECT_DOUBLE_EQ(clean.quality_score, 0.8);
  EXPECT_TRUE(clean.passed);
  MetricsAnswer failed_rules = CombineScores(Data(0.99, false, {"x.min: 1 of 100 rows"}), Telemetry(0, 0), nullptr);
  EXPECT_FALSE(failed_rules.passed);
  EXPECT_EQ(failed_rules.reasons, (std::vector<std::string>{"x.min: 1 of 100 rows"}));
}

TEST(QualityScoreTest, NoDataAndUnknownHashes) {
  MetricsAnswer telemetry_only = CombineScores(DataPart{}, Telemetry(2, 0), nullptr);
  EXPECT_EQ(telemetry_only.quality_score, 1.0);
  EXPECT_FALSE(telemetry_only.data_score.has_value());
  EXPECT_TRUE(telemetry_only.passed);

  DataPart unknown;
  unknown.source = DataPart::Source::kUnknownHash;
  unknown.batch_hash = "abc";
  MetricsAnswer fails = CombineScores(unknown, Telemetry(1, 0), nullptr);
  EXPECT_EQ(fails.quality_score, 0.0);
  EXPECT_FALSE(fails.passed);
  EXPECT_EQ(fails.reasons, (std::vector<std::string>{"unknown batch_hash abc: not validated recently; send its records"}));
  EXPECT_TRUE(fails.unknown_batch_hash);
  EXPECT_EQ(MetricsAnswerJson(fails),
            "{\"quality_score\": 0, \"passed\": false, \"reasons\": [\"unknown batch_hash abc: not validated recently; "
            "send its records\"], \"data_score\": 0, \"telemetry_score\": 1, \"unknown_batch_hash\": true}");
  TrainingRules neutral;
  neutral.unknown_batch = TrainingRules::UnknownBatch::kNeutral;
  MetricsAnswer left_out = CombineScores(unknown, Telemetry(1, 0), &neutral);
  EXPECT_EQ(left_out.quality_score, 1.0);
  EXPECT_TRUE(left_out.passed);
  EXPECT_FALSE(left_out.data_score.has_value());
  EXPECT_EQ(left_out.reasons.size(), 1u);
}

TEST(QualityScoreTest, MinScoreAndJson) {
  TrainingRules rules;
  rules.min_score = 0.9;
  MetricsAnswer low = CombineScores(Data(0.85, true), Telemetry(0, 0), &rules);
  EXPECT_FALSE(low.passed);
  EXPECT_EQ(low.reasons, (std::vector<std::string>{"quality_score 0.8500 < training.min_score 0.9"}));
  EXPECT_EQ(MetricsAnswerJson(low),
            "{\"quality_score\": 0.85, \"passed\": false, \"reasons\": [\"quality_score 0.8500 < training.min_score "
            "0.9\"], \"data_score\": 0.85, \"telemetry_score\": 1}");
  EXPECT_EQ(MetricsAnswerJson(CombineScores(DataPart{}, Telemetry(0, 0), nullptr)),
            "{\"quality_score\": 1, \"passed\": true, \"reasons\": [], \"data_score\": null, \"telemetry_score\": 1}");
}

TEST(QualityScoreTest, BatchReasonsFromAReport) {
  Report report;
  report.rows = 100;
  report.bad_rows = 12;
  report.malformed_rows = 1;
  report.quality_score = 0.88;
  report.score_min = 0.9;
  report.passed = false;
  report.schema_errors.push_back({"z", "required column z is missing"});
  auto check = [](const char* name, const char* severity, int64_t evaluated, int64_t violations) {
    CheckReport c;
    c.name = name;
    c.severity = severity;
    c.evaluated = evaluated;
    c.violations = violations;
    c.passed = false;
    return c;
  };
  CheckReport a = check("x.finite", "error", 100, 11);
  CheckReport b = check("y.in", "error", 99, 2);
  CheckReport warn = check("y.max", "warn", 99, 50);
  report.checks = {b, warn, a};
  BatchScore score = BatchScoreOf(report, 1);
  EXPECT_EQ(score.reasons, (std::vector<std::string>{"schema: required column z is missing", "malformed: 1 of 100 rows",
                                                     "x.finite: 11 of 100 rows",
                                                     "quality_score 0.8800 < score.min 0.9"}));
  EXPECT_EQ(score.bad_rows, 12);
  EXPECT_FALSE(score.passed);
}

// A failing `malformed` check (rules-v1, amended 2026-12-03) is one reason,
// not two; a tolerated one still says how many records were malformed.
TEST(QualityScoreTest, MalformedCheckGivesOneReason) {
  Report report;
  report.rows = 4;
  report.bad_rows = 3;
  report.malformed_rows = 3;
  CheckReport malformed;
  malformed.name = "malformed";
  malformed.severity = "error";
  malformed.evaluated = 4;
  malformed.violations = 3;
  malformed.passed = false;
  report.checks = {malformed};
  EXPECT_EQ(BatchScoreOf(report, 5).reasons, (std::vector<std::string>{"malformed: 3 of 4 rows"}));
  report.checks[0].passed = true;  // tolerated by source.malformed.mostly
  EXPECT_EQ(BatchScoreOf(report, 5).reasons, (std::vector<std::string>{"malformed: 3 of 4 rows"}));
}

}  // namespace
}  // namespace griffin::server
