// Internal to sinks/: a value of a batch as output text. Text columns keep
// the text as read; typed (Arrow) values are rendered canonically: integers
// in decimal, floats shortest round-trip (FormatDouble), dates and timestamps
// ISO 8601 (timestamps in UTC, microsecond precision), booleans true/false.
#pragma once

#include <cstdint>
#include <string>

#include <arrow/array.h>

#include "io/batch.h"

namespace griffin {

// Whether `row` of `column` is null.
bool ColumnValueIsNull(const BatchColumn& column, int64_t row);

// Appends the value as plain text (nothing for a null). For JSON lines text,
// strings are the unescaped text and objects/arrays their raw JSON.
void AppendValueText(const BatchColumn& column, int64_t row, std::string* out);

// Appends the value as a JSON value: null, a number, true/false, a string,
// or (JSON lines objects and arrays) the raw JSON. Non-finite floats become
// the strings "nan", "inf", "-inf" (JSON has no literal for them).
void AppendValueJson(const BatchColumn& column, int64_t row, std::string* out);

// The same for one Arrow value (the caller checks nulls for the text form).
void AppendArrowText(const arrow::Array& array, int64_t row, std::string* out);
void AppendArrowJson(const arrow::Array& array, int64_t row, std::string* out);

}  // namespace griffin
