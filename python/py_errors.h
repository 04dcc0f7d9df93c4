// Griffin's exceptions as the nanobind extension raises them: C++ types that
// NB_MODULE maps onto griffin.GriffinError, RuleError and InputError.
#pragma once

#include <stdexcept>

#include "util/status.h"

namespace griffin::python {

struct GriffinErrorCpp : std::runtime_error { using std::runtime_error::runtime_error; };
struct RuleErrorCpp : std::runtime_error { using std::runtime_error::runtime_error; };
struct InputErrorCpp : std::runtime_error { using std::runtime_error::runtime_error; };

// Exit-2 class statuses (rules, usage) raise RuleError; input and store
// errors InputError; anything else GriffinError.
[[noreturn]] inline void Raise(const Status& status) {
  switch (status.code()) {
    case StatusCode::kRuleError:
    case StatusCode::kUsageError: throw RuleErrorCpp(status.message());
    case StatusCode::kInputError:
    case StatusCode::kStoreError: throw InputErrorCpp(status.message());
    default: throw GriffinErrorCpp(status.message());
  }
}

template <typename T>
T ValueOrRaise(Result<T> result) {
  if (!result.ok()) Raise(result.status());
  return std::move(result).value();
}

}  // namespace griffin::python
