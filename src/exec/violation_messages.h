// Values and default messages for the report's violations list.
#pragma once

#include <string>

#include "io/batch.h"
#include "plan/plan.h"
#include "report/report.h"

namespace griffin {

// The value of batch column `column_index` at `row` as read: a string for
// text inputs, the JSON type for JSON lines, a number/bool/string for Arrow.
JsonScalar ValueAsRead(const Batch& batch, int column_index, int64_t row);

// A short human form of a value for messages: text as is, null as "null".
std::string ValueForMessage(const JsonScalar& value);

// The message of a violation: the check's custom `message` (with {value},
// {column} and {row} substituted) or the default for its kind.
// `first_row` is the first occurrence for unique checks (else -1).
std::string ViolationMessage(const Plan& plan, int check_index, const CompiledColumnCheck* column_check,
                             const JsonScalar& value, int64_t row, int64_t first_row);

}  // namespace griffin
