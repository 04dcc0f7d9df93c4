// What a worker computes for one batch, before the in-order merge. Everything
// here is batch-local (row indices start at 0 for the batch); the merger adds
// the batch's base row and the order-dependent parts (unique, metrics).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "exec/column_profile.h"
#include "io/batch.h"
#include "io/typed_column.h"
#include "profile/table_profile.h"

namespace griffin {

struct CheckBatchResult {
  int64_t evaluated = 0;
  int64_t violations = 0;       // == rows.size() for row-level checks
  std::vector<int32_t> rows;    // violating batch rows, ascending
};

// Keys for a `unique` check (column or row tuple): one per evaluated row.
// A column check's keys are its column's values (NumericKey / ValueKey in
// column_kernels.h); a row tuple's key bytes are built into `arena`.
struct UniqueKeys {
  std::vector<int32_t> rows;             // ascending
  std::vector<uint64_t> hashes;          // XXH3 of the key bytes (empty for a numeric column)
  std::vector<std::string_view> keys;    // row tuples only: exact key bytes (into `arena`)
  std::string arena;
};

struct SchemaProblem {
  std::string column;
  std::string message;
};

struct BatchResult {
  std::shared_ptr<const Batch> batch;
  std::vector<TypedColumn> columns;        // per plan column slot
  std::vector<CheckBatchResult> checks;    // per plan check index
  std::vector<UniqueKeys> unique_keys;     // per plan check index (empty unless unique)
  std::vector<uint8_t> bad;                // per row: violates an error check (unique added at merge)
  std::vector<SchemaProblem> schema_problems;
  std::vector<int> input_column;           // per plan column slot: index in batch->columns, or -1
  std::vector<ColumnProfile> profiles;     // per plan column slot, when profiling (else empty)
  std::unique_ptr<TableProfile> table_profile;  // the drift-checked columns, when profiling them
};

}  // namespace griffin
