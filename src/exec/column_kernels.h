// The per-column check kernels: one tight loop per check over a TypedColumn,
// recording evaluated counts and violating rows. `unique` only gathers keys
// here; which occurrence is first is decided by the in-order merger.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

#include "exec/batch_result.h"
#include "plan/plan.h"

namespace griffin {

// Evaluates every check of `column_plan` on `column` (a batch's typed column).
// Writes into results->checks[check_index] and results->unique_keys[check_index].
void RunColumnChecks(const ColumnPlan& column_plan, const TypedColumn& column, const Batch& batch,
                     BatchResult* results);

// The key of a numeric value (every type but string) as a numeric unique
// check compares it: the int64, or the float64's bits with -0.0 as 0.0 and
// every NaN as one.
inline uint64_t NumericKey(const TypedColumn& column, int64_t row) {
  if (column.type != ValueType::kFloat64) return static_cast<uint64_t>(column.ints[row]);
  double f = column.floats[row];
  if (f == 0) f = 0.0;                                                // -0.0 equals 0.0
  if (std::isnan(f)) f = std::numeric_limits<double>::quiet_NaN();  // one NaN
  uint64_t key;
  std::memcpy(&key, &f, 8);
  return key;
}

// The exact key bytes of a typed value, as unique and distinct compare them:
// a string's bytes, else 8 bytes (float -0.0 and NaN normalized) written into
// `scratch`. Valid while the column and `scratch` live.
std::string_view ValueKey(const TypedColumn& column, int64_t row, char (&scratch)[8]);

// Appends ValueKey(column, row) to `out`.
void AppendValueKey(const TypedColumn& column, int64_t row, std::string* out);

}  // namespace griffin
