// Runs the order-independent part of a plan on one batch: converts columns,
// runs every column kernel and row expression, gathers unique keys and marks
// bad rows. Thread-safe; called from worker threads concurrently.
//
// Row expressions are compiled once per input schema (text inputs have one;
// a typed input's undeclared columns take their Arrow type) and cached.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "exec/batch_result.h"
#include "exec/batch_result_pool.h"
#include "plan/expr_program.h"
#include "plan/plan.h"

namespace griffin {

// Which columns' input values a run profiles as `griffin profile` does
// (BatchResult::table_profile, profile/table_profile.h).
enum class TableProfiling {
  kNone,
  kDriftColumns,     // the columns that have a drift check
  kDeclaredColumns,  // every declared column (a recorded run's stored profile)
};

class BatchEvaluator {
 public:
  // `profile_columns`: also compute each declared column's ColumnProfile.
  // `table_profiling`: which columns' values to profile as well.
  // `pool` (optional, not owned): results are taken from it (their buffers
  // reused) instead of allocated.
  explicit BatchEvaluator(std::shared_ptr<const Plan> plan, bool profile_columns = false,
                          TableProfiling table_profiling = TableProfiling::kNone, BatchResultPool* pool = nullptr);

  // Errors: a row expression that does not type-check against this input's
  // column types (RuleError naming the rule file line).
  Result<std::unique_ptr<BatchResult>> Evaluate(std::shared_ptr<const Batch> batch) const;

  const Plan& plan() const { return *plan_; }

 private:
  struct Binding {
    std::vector<ValueType> slot_types;                    // per plan column slot
    std::vector<std::unique_ptr<ExprProgram>> programs;   // per row plan (null for unique)
    std::vector<std::vector<int>> program_slots;          // per row plan: slot per program column
  };
  Result<std::shared_ptr<const Binding>> Bind(const Batch& batch) const;
  Result<std::shared_ptr<const Binding>> CompileBinding(const Batch& batch) const;
  void RunRowChecks(const Binding& binding, const Batch& batch, BatchResult* result) const;

  std::shared_ptr<const Plan> plan_;
  bool profile_columns_;
  BatchResultPool* pool_;
  std::vector<std::string> profiled_names_;  // the columns table_profiling names
  mutable std::mutex mutex_;
  mutable std::map<std::string, std::shared_ptr<const Binding>> bindings_;
};

}  // namespace griffin
