// The answer of POST /metrics: a batch's data score combined with the
// step's telemetry checks (docs/service.md, "The quality score"):
//
//   data_score d       the batch's quality_score (rows - bad rows) / rows, from
//                      the request's records or the score remembered under its
//                      batch_hash; without either, the data part is left out (d = 1).
//                      An unknown batch_hash gives d = 0 and fails, unless the
//                      rules say `training: {unknown_batch: neutral}` (then d = 1).
//   telemetry_score t  (error checks passed) / (error checks that applied), 1 if none
//   quality_score      d * t
//   passed             the batch's run passed (rules-v1 verdict) and no
//                      error-severity telemetry check failed and, when
//                      training.min_score is set, quality_score >= min_score.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/report.h"
#include "rules/rule_set.h"
#include "server/batch_scores.h"
#include "server/telemetry.h"

namespace griffin::server {

struct DataPart {
  enum class Source { kNone, kRecords, kRemembered, kUnknownHash } source = Source::kNone;
  BatchScore score;            // kRecords, kRemembered
  std::string batch_hash;      // kUnknownHash: named in the reason
};

struct MetricsAnswer {
  double quality_score = 1.0;
  bool passed = true;
  std::vector<std::string> reasons;
  std::optional<double> data_score;  // null when the data part was left out
  double telemetry_score = 1.0;
  // The request named a batch_hash the service does not know: a client that
  // still has the batch should send its records again.
  bool unknown_batch_hash = false;
};

// `rules` may be null (a rule file without `training:`).
MetricsAnswer CombineScores(const DataPart& data, const TelemetryVerdict& telemetry, const TrainingRules* rules);

// {"quality_score": .., "passed": .., "reasons": [..], "data_score": .., "telemetry_score": ..}
// plus "unknown_batch_hash": true when that is so.
std::string MetricsAnswerJson(const MetricsAnswer& answer);

// A batch's score and reasons from its report: schema errors, malformed
// rows, then the error checks with the most violations ("x.finite: 11 of
// 100 rows"), at most `max_checks`, then a failed score.min.
BatchScore BatchScoreOf(const Report& report, size_t max_checks = 3);

}  // namespace griffin::server
