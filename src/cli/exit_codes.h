// Exit statuses of the CLI (cli-and-report-v1) and the mapping from Status.
#pragma once

#include "util/status.h"

namespace griffin {

constexpr int kExitPassed = 0;
constexpr int kExitFailed = 1;       // the run failed its checks
constexpr int kExitUsage = 2;        // rule file or command line wrong
constexpr int kExitInput = 3;        // an input (or the store) could not be read

inline int ExitCodeFor(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOk: return kExitPassed;
    case StatusCode::kRuleError:
    case StatusCode::kUsageError: return kExitUsage;
    default: return kExitInput;
  }
}

}  // namespace griffin
