// The value types a rule file can declare for a column (rules-v1 "Types"),
// and their in-memory representation inside the engine:
//   kString    -> std::string_view
//   kInt64     -> int64_t
//   kFloat64   -> double
//   kBool      -> int64_t 0 or 1
//   kDate      -> int64_t days since 1970-01-01
//   kTimestamp -> int64_t microseconds since 1970-01-01T00:00:00Z (UTC)
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace griffin {

enum class ValueType { kString, kInt64, kFloat64, kBool, kDate, kTimestamp };

// "string", "int64", ... (the canonical spelling used in reports).
const char* ValueTypeName(ValueType type);

// Parses a type name from a rule file, accepting the aliases int, float, double.
std::optional<ValueType> ParseValueTypeName(std::string_view name);

// True for the types whose engine representation is int64_t.
inline bool IsIntegerBacked(ValueType t) {
  return t == ValueType::kInt64 || t == ValueType::kBool || t == ValueType::kDate ||
         t == ValueType::kTimestamp;
}

}  // namespace griffin
