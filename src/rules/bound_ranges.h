// Whether the bounds a rule file puts on one quantity leave any value that
// could pass them, so that contradictory bounds (`min: 10, max: 0`,
// `gt: 5, lt: 5`, `min: 3, lt: 3`) are refused when the file loads instead of
// failing every row later.
//
//   RangeEnd low{"min", &min_literal, /*inclusive=*/true};
//   RangeEnd high{"lt", &lt_literal, /*inclusive=*/false};
//   if (std::optional<std::string> problem = EmptyRangeProblem(ValueType::kInt64, low, high))
//     return ctx.Error(field, *problem);  // "min 3 and lt 3 leave no value that can pass"
//
// Literals are the ones rule_literals.h produces for a column of `type`.
// `now` is never contradictory here: its value is only known when a run starts.
// Internal to rules/.
#pragma once

#include <optional>
#include <string>

#include "rules/rule_set.h"
#include "util/value_type.h"

namespace griffin::rules_internal {

// One end of a range: `min`/`max` are inclusive, `gt`/`lt` are not.
struct RangeEnd {
  const char* key = "";              // the rule-file key, for messages: "min", "lt", ...
  const Literal* literal = nullptr;
  bool inclusive = true;
};

// True when no value of a `type` column satisfies both `value >(=) lower` and
// `value <(=) upper`. int64, date and timestamp values are discrete (whole
// numbers, days, microseconds), so `gt: 1, lt: 2` leaves nothing for int64;
// float64 values are continuous.
bool LeavesNothing(ValueType type, const RangeEnd& lower, const RangeEnd& upper);

// When LeavesNothing, what to tell the rule's author ("min 10 is greater than
// max 0", "gt 5 and lt 5 leave no value that can pass"); nullopt otherwise.
std::optional<std::string> EmptyRangeProblem(ValueType type, const RangeEnd& lower,
                                             const RangeEnd& upper);

}  // namespace griffin::rules_internal
