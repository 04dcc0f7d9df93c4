// The read options a rule file's `source:` section asks for, with the columns
// its rules name (what JSON-lines readers extract). Front ends start from this
// and apply their own overrides (CLI flags).
#pragma once

#include <cstdint>

#include "io/input_source.h"
#include "plan/plan.h"

namespace griffin {

ReadOptions ReadOptionsFromRules(const Plan& plan, int64_t batch_rows);

}  // namespace griffin
