// What checks against history (history/history_checks.h) may read: the run
// store, and where a rule file's relative baseline files are.
#pragma once

#include <string>

#include "plan/read_options.h"
#include "store/run_store.h"

namespace griffin {

struct HistoryContext {
  RunStore* store = nullptr;       // null: no run store
  std::string no_store_reason;     // why, for messages ("--no-store was given")
  std::string rules_dir;           // profile:FILE's relative paths start here
  ReadOptions read_options;        // for a profile:FILE that is data
};

}  // namespace griffin
