// Converts one input column of a batch into a TypedColumn of the declared
// type (rules-v1 "Types"; docs/semantics.md "JSON lines", "Typed inputs").
//
// Text values are parsed per the type's rules; Arrow columns of a lossless
// type are read in place when their width already matches (int64, float64,
// no copy) and widened otherwise. A floating-point Arrow column declared int64
// is judged value by value (integral values within range pass). A lossy Arrow
// type marks every non-null value as a type error and sets *lossy so the
// engine reports one schema error.
#pragma once

#include <optional>
#include <string>

#include "io/batch.h"
#include "io/typed_column.h"
#include "util/status.h"

namespace griffin {

struct ConvertOptions {
  ValueType type = ValueType::kString;
  std::optional<std::string> timestamp_format;
};

// `column` may be null: the input lacks the column (present = false, all null).
// Malformed rows of the batch are null. *lossy is set for Arrow types that
// cannot hold the declared type; *lossy_message says why.
void ConvertColumn(const Batch& batch, const BatchColumn* column, const ConvertOptions& options,
                   TypedColumn* out, bool* lossy, std::string* lossy_message);

// The natural rules type of an Arrow type (for columns no rule declares), or
// nullopt when Griffin has no matching type (lists, structs, ...).
std::optional<ValueType> NaturalValueType(const arrow::DataType& type);

}  // namespace griffin
