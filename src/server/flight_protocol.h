// The parts of the Flight protocol of `griffin serve` that are plain data:
// what a descriptor asks for, and the results batch sent back per input
// batch of a DoExchange (flight_service.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <arrow/flight/types.h>
#include <arrow/record_batch.h>

#include "report/report.h"
#include "rules/rule_set.h"
#include "sinks/row_sink.h"
#include "util/status.h"

namespace griffin::server {

struct FlightTarget {
  std::string dataset;
  std::string batch_hash;       // "" : none
  int64_t max_violations = kDefaultMaxViolations;
  bool store = true;
  bool await_record = false;    // the command said "store": true (see ServiceCore::ValidateOptions)
};

// From a path [dataset] / [dataset, batch_hash], or a JSON command. A
// UsageError with a one-line reason otherwise.
Result<FlightTarget> ParseFlightTarget(const arrow::flight::FlightDescriptor& descriptor);

// Builds the one-row results batch of an input batch:
//   batch: int64, first_row: int64, rows: int64, bad_rows: list<int64>,
//   checks: list<struct<check: utf8, violations: int64>>
// `checks` lists every error-severity row-level check of the rules, in file
// order, with its violations in the batch.
class ResultBatchBuilder {
 public:
  explicit ResultBatchBuilder(const RuleSet& rules);
  static std::shared_ptr<arrow::Schema> Schema();
  // `verdicts` may be null (an empty input batch).
  Result<std::shared_ptr<arrow::RecordBatch>> Build(int64_t batch, int64_t first_row, int64_t rows,
                                                    const RowVerdicts* verdicts) const;

 private:
  std::vector<std::string> checks_;
};

}  // namespace griffin::server
