// griffin.spark's SQL mode (python/griffin/spark/_sql.py): the rules compiled
// to one dialect's SQL (connectors/sql/pushdown_compiler.h) over a named
// relation, and the report assembled from what that SQL returned
// (connectors/sql/pushdown_report.h), as --mode pushdown does for databases.
//
//   plan = SqlPlan::Compile(validator, "spark", "`v`", {{"id", "integer"}}, 100, true);
//   plan.aggregate_sql ...   // run it; then the samples; then the fallback run
//   Report report = plan.Assemble(aggregate_batches, samples, &fallback_report);
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <arrow/record_batch.h>

#include "api/validator.h"
#include "connectors/sql/pushdown_compiler.h"
#include "connectors/sql/pushdown_report.h"

namespace griffin::python {

using Batches = std::vector<std::shared_ptr<arrow::RecordBatch>>;

class SqlPlan {
 public:
  // `stored`: column -> how the relation holds it: text, integer, double,
  // bool, date, timestamp or other (anything else is a ValueError upstream).
  // UsageError for an unknown dialect or stored kind.
  static Result<std::shared_ptr<const SqlPlan>> Compile(std::shared_ptr<const Validator> validator,
                                                        const std::string& dialect, const std::string& from,
                                                        const std::map<std::string, std::string>& stored,
                                                        int64_t max_violations, bool windowless_fallback);

  const sql::PushdownQuery& query() const { return query_; }
  const Plan& plan() const { return validator_->plan(); }
  // The validator of the checks that fall back (plus _griffin_pushed_bad), or null.
  const std::shared_ptr<const Validator>& fallback() const { return fallback_; }

  // The check indices whose sample query must run, given the aggregate's result.
  Result<std::vector<int>> SampleChecks(const Batches& aggregate) const;
  // The report: `samples` (check index -> its sample query's rows), `fallback_report`
  // the fallback validator's report of fallback_sql's rows (null when nothing falls back).
  Result<Report> Assemble(const Batches& aggregate, const std::vector<std::pair<int, Batches>>& samples,
                          const Report* fallback_report) const;

 private:
  std::shared_ptr<const Validator> validator_;
  const sql::SqlDialect* dialect_ = nullptr;
  sql::PushdownQuery query_;
  std::shared_ptr<const Validator> fallback_;
  int64_t max_violations_ = 0;
  std::string context_;
};

}  // namespace griffin::python
