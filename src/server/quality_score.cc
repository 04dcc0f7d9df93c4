#include "server/quality_score.h"

#include <algorithm>
#include <cstdio>

#include "report/json_writer.h"
#include "util/value_parse.h"
#include "util/count_of.h"

namespace griffin::server {
namespace {

std::string Fixed(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4f", value);
  return text;
}

}  // namespace

BatchScore BatchScoreOf(const Report& report, size_t max_checks) {
  BatchScore score;
  score.quality_score = report.quality_score;
  score.passed = report.passed;
  score.rows = report.rows;
  score.bad_rows = report.bad_rows;
  score.rules_sha256 = report.rules_sha256;
  for (const SchemaError& error : report.schema_errors) score.reasons.push_back("schema: " + error.message);
  bool malformed_check_failed = false;  // then the check's own reason below says it
  for (const CheckReport& check : report.checks)
    malformed_check_failed = malformed_check_failed || (check.name == "malformed" && !check.passed);
  if (report.malformed_rows > 0 && !malformed_check_failed) {
    score.reasons.push_back("malformed: " + std::to_string(report.malformed_rows) + " of " +
                            CountOf(report.rows, "row"));
  }
  std::vector<const CheckReport*> failing;
  for (const CheckReport& check : report.checks) {
    if (check.severity != "error" || check.passed) continue;
    if (check.is_table || check.violations > 0) failing.push_back(&check);
  }
  std::stable_sort(failing.begin(), failing.end(),
                   [](const CheckReport* a, const CheckReport* b) { return a->violations > b->violations; });
  for (size_t i = 0; i < failing.size() && i < max_checks; ++i) {
    const CheckReport& check = *failing[i];
    if (check.is_table) {
      score.reasons.push_back(check.name + ": observed " + check.observed_text);
    } else {
      score.reasons.push_back(check.name + ": " + std::to_string(check.violations) + " of " +
                              CountOf(check.evaluated, "row"));
    }
  }
  if (report.score_min && report.quality_score < *report.score_min) {
    score.reasons.push_back("quality_score " + Fixed(report.quality_score) + " < score.min " +
                            FormatDouble(*report.score_min));
  }
  return score;
}

MetricsAnswer CombineScores(const DataPart& data, const TelemetryVerdict& telemetry, const TrainingRules* rules) {
  MetricsAnswer answer;
  double data_score = 1.0;
  bool data_passed = true;
  switch (data.source) {
    case DataPart::Source::kNone:
      break;
    case DataPart::Source::kRecords:
    case DataPart::Source::kRemembered:
      data_score = data.score.quality_score;
      data_passed = data.score.passed;
      answer.data_score = data_score;
      answer.reasons = data.score.reasons;
      break;
    case DataPart::Source::kUnknownHash: {
      answer.unknown_batch_hash = true;
      const bool neutral = rules != nullptr && rules->unknown_batch == TrainingRules::UnknownBatch::kNeutral;
      if (neutral) {
        answer.reasons.push_back("unknown batch_hash " + data.batch_hash + ": left out of the score (unknown_batch: neutral)");
      } else {
        data_score = 0;
        data_passed = false;
        answer.data_score = 0.0;
        answer.reasons.push_back("unknown batch_hash " + data.batch_hash +
                                 ": not validated recently; send its records");
      }
      break;
    }
  }
  answer.telemetry_score = telemetry.score();
  answer.quality_score = data_score * answer.telemetry_score;
  answer.reasons.insert(answer.reasons.end(), telemetry.reasons.begin(), telemetry.reasons.end());
  answer.passed = data_passed && telemetry.failed == 0;
  if (rules != nullptr && rules->min_score && answer.quality_score < *rules->min_score) {
    answer.passed = false;
    answer.reasons.push_back("quality_score " + Fixed(answer.quality_score) + " < training.min_score " +
                             FormatDouble(*rules->min_score));
  }
  return answer;
}

std::string MetricsAnswerJson(const MetricsAnswer& answer) {
  std::string out = "{\"quality_score\": " + FormatDouble(answer.quality_score);
  out += answer.passed ? ", \"passed\": true" : ", \"passed\": false";
  out += ", \"reasons\": [";
  for (size_t i = 0; i < answer.reasons.size(); ++i) {
    if (i > 0) out += ", ";
    AppendJsonString(answer.reasons[i], &out);
  }
  out += "], \"data_score\": ";
  out += answer.data_score ? FormatDouble(*answer.data_score) : "null";
  out += ", \"telemetry_score\": " + FormatDouble(answer.telemetry_score);
  if (answer.unknown_batch_hash) out += ", \"unknown_batch_hash\": true";
  return out + "}";
}

}  // namespace griffin::server
