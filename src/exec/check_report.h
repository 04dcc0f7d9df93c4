// A check's report from its counts or observation. A table check's: from its observation: the bounds compared and the
// observed value written as the report has it (a number, an integer, an ISO
// date or timestamp, true/false). Shared by the merger (observations from its
// column metrics) and SQL pushdown (observations from the database's
// aggregate, connectors/sql/pushdown_runner.h), so both judge alike.
#pragma once

#include <cstdint>
#include <optional>

#include "plan/plan.h"
#include "report/report.h"

namespace griffin {

struct TableObservation {
  ValueType type = ValueType::kFloat64;  // the column's type; kFloat64 for row_count
  std::optional<double> value;           // a float observation (NaN fails any bound)
  std::optional<int64_t> int_value;      // an exact one (counts; int, date, timestamp extremes)
};

CheckReport JudgeTableCheck(const Plan& plan, const TablePlan& table, const TableObservation& observation);

// A row-level check's report from its counts: pass_rate, mostly, passed.
CheckReport CountedCheckReport(const CheckInfo& info, int64_t evaluated, int64_t violations);

// A history check before history/history_checks.h judges it.
CheckReport NotEvaluatedHistoryReport(const CheckInfo& info);

}  // namespace griffin
