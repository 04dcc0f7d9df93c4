// Which columns of a rule set can feed a training batch, and as what dtype.
// Used by FeatureStream (griffin.jax.batches): every clean row must give every
// selected column a value, so the rule file itself has to guarantee it.
//
// A column qualifies when the rules declare it and give it an error-severity
// `not_null` (a type failure counts as null, so a clean row's value is present
// and of the declared type). Its dtype:
//   float64                      -> float64, or float32 when narrow
//   int64, date, timestamp       -> int64,   or int32 when narrow (a value that
//                                   does not fit int32 is an error at run time)
//   bool                         -> bool (one byte, 0/1)
//   string with an error `in:`   -> int32 category code: the value's index in
//                                   the `in` list, in rule-file order
// Other string columns are refused: text has no tensor form.
//
//   ASSIGN_OR_RETURN(auto columns, PlanFeatureColumns(plan, {"amount", "currency"}, {}, /*narrow=*/true));
#pragma once

#include <map>
#include <string>
#include <vector>

#include "plan/plan.h"
#include "util/status.h"

namespace griffin {

enum class FeatureDType { kFloat32, kFloat64, kInt32, kInt64, kBool };

// "float32", ... (numpy's spelling); ParseFeatureDType accepts those names.
const char* FeatureDTypeName(FeatureDType dtype);
Result<FeatureDType> ParseFeatureDType(const std::string& name);
int FeatureDTypeWidth(FeatureDType dtype);

struct FeatureColumn {
  std::string name;
  int slot = -1;                          // into Plan::columns()
  ValueType source_type = ValueType::kString;
  FeatureDType dtype = FeatureDType::kFloat64;
  std::vector<std::string> vocabulary;    // string columns: the `in` list, in file order
};

// `names` empty: every declared column that qualifies (string columns without
// an `in` list are left out instead of refused). `dtypes` overrides the
// default dtype per column (a numeric dtype for a numeric column; a string
// column's codes may be int32 or int64). UsageError names the column and what
// the rule file needs.
Result<std::vector<FeatureColumn>> PlanFeatureColumns(const Plan& plan, const std::vector<std::string>& names,
                                                      const std::map<std::string, std::string>& dtypes,
                                                      bool narrow);

}  // namespace griffin
