// `griffin validate --explain`: the compiled plan as text, one line per
// check, with the path each regex takes (RegexDfa or RE2, and why).
#pragma once

#include <string>

#include "plan/plan.h"

namespace griffin {

std::string ExplainPlan(const Plan& plan);

}  // namespace griffin
