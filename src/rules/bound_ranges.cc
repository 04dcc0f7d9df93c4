#include "rules/bound_ranges.h"

#include <cmath>
#include <optional>
#include <string>

namespace griffin::rules_internal {

namespace {

constexpr long double kMicrosPerDay = 86400.0L * 1000000.0L;

// The literal on the column's own scale (dates and timestamps in
// microseconds), as a long double, which holds every int64 exactly on the
// platforms Griffin builds for; nullopt for `now` and non-numeric literals.
std::optional<long double> ScaleValue(const Literal& literal, ValueType type) {
  switch (literal.kind) {
    case Literal::Kind::kInt:
      return static_cast<long double>(literal.int_value);
    case Literal::Kind::kFloat:
      return static_cast<long double>(literal.float_value);
    case Literal::Kind::kDate:
      // Date bounds hold days on date columns; timestamp columns never get kDate.
      return static_cast<long double>(literal.int_value) *
             (type == ValueType::kDate ? kMicrosPerDay : 1.0L);
    case Literal::Kind::kTimestamp:
      return static_cast<long double>(literal.int_value);
    default:
      return std::nullopt;
  }
}

// The distance between neighbouring values of the column; 0 for float64.
long double GridStep(ValueType type) {
  switch (type) {
    case ValueType::kInt64: return 1.0L;
    case ValueType::kTimestamp: return 1.0L;
    case ValueType::kDate: return kMicrosPerDay;
    default: return 0.0L;
  }
}

}  // namespace

bool LeavesNothing(ValueType type, const RangeEnd& lower, const RangeEnd& upper) {
  if (lower.literal == nullptr || upper.literal == nullptr) return false;
  std::optional<long double> low = ScaleValue(*lower.literal, type);
  std::optional<long double> high = ScaleValue(*upper.literal, type);
  if (!low.has_value() || !high.has_value()) return false;
  if (std::isnan(*low) || std::isnan(*high)) return false;  // the loader refuses NaN bounds
  const long double step = GridStep(type);
  if (step == 0.0L || std::isinf(*low) || std::isinf(*high)) {
    if (*low != *high) return *low > *high;
    return !(lower.inclusive && upper.inclusive);
  }
  // The smallest and largest values on the grid that the two ends allow.
  const long double first = lower.inclusive ? std::ceil(*low / step) * step
                                            : (std::floor(*low / step) + 1.0L) * step;
  const long double last = upper.inclusive ? std::floor(*high / step) * step
                                           : (std::ceil(*high / step) - 1.0L) * step;
  return first > last;
}

std::optional<std::string> EmptyRangeProblem(ValueType type, const RangeEnd& lower,
                                             const RangeEnd& upper) {
  if (!LeavesNothing(type, lower, upper)) return std::nullopt;
  const std::string low = std::string(lower.key) + " " + lower.literal->text;
  const std::string high = std::string(upper.key) + " " + upper.literal->text;
  if (lower.inclusive && upper.inclusive) {
    std::optional<long double> low_value = ScaleValue(*lower.literal, type);
    std::optional<long double> high_value = ScaleValue(*upper.literal, type);
    if (*low_value > *high_value) return low + " is greater than " + high;
  }
  return low + " and " + high + " leave no value that can pass";
}

}  // namespace griffin::rules_internal
