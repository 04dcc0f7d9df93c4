#include "util/value_type.h"

namespace griffin {

const char* ValueTypeName(ValueType type) {
  switch (type) {
    case ValueType::kString: return "string";
    case ValueType::kInt64: return "int64";
    case ValueType::kFloat64: return "float64";
    case ValueType::kBool: return "bool";
    case ValueType::kDate: return "date";
    case ValueType::kTimestamp: return "timestamp";
  }
  return "?";
}

std::optional<ValueType> ParseValueTypeName(std::string_view name) {
  if (name == "string") return ValueType::kString;
  if (name == "int64" || name == "int") return ValueType::kInt64;
  if (name == "float64" || name == "float" || name == "double") return ValueType::kFloat64;
  if (name == "bool") return ValueType::kBool;
  if (name == "date") return ValueType::kDate;
  if (name == "timestamp") return ValueType::kTimestamp;
  return std::nullopt;
}

}  // namespace griffin
