// One column of one batch, converted to the type its rule declares. This is
// what every column kernel and every row expression reads.
//
//   valid[r] == 1       the value is present and of the declared type
//   type_error[r] == 1  the value is present but does not parse / fit the type;
//                       it counts as null for every check but `type`
//   neither             null (or the row is malformed, or the column is missing)
//
// Values: `ints` for int64/bool/date/timestamp, `floats` for float64,
// `strings` for string. Numeric pointers may point into an Arrow buffer (no
// copy) or into the owned vectors below. Valid only while the batch lives.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "util/value_type.h"

namespace griffin {

struct TypedColumn {
  ValueType type = ValueType::kString;
  int64_t num_rows = 0;
  bool present = true;                 // false: the input lacks this column
  std::vector<uint8_t> valid;
  std::vector<uint8_t> type_error;     // may be empty: no type errors in this batch
  const int64_t* ints = nullptr;
  const double* floats = nullptr;
  const std::string_view* strings = nullptr;

  std::vector<int64_t> owned_ints;
  std::vector<double> owned_floats;
  std::vector<std::string_view> owned_strings;

  bool HasTypeError(int64_t r) const { return !type_error.empty() && type_error[r]; }
  // Back to a new column's state, keeping the vectors' capacity (a reused
  // BatchResult's column, exec/batch_result_pool.h).
  void Reset() {
    type = ValueType::kString;
    num_rows = 0;
    present = true;
    valid.clear();
    type_error.clear();
    ints = nullptr;
    floats = nullptr;
    strings = nullptr;
    owned_ints.clear();
    owned_floats.clear();
    owned_strings.clear();
  }
};

}  // namespace griffin
