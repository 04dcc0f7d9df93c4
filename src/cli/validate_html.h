// `griffin validate --html PATH`: the run's HTML page (report/html), with the
// profile of the validated columns (a second read of the inputs, with the
// run's read options) and the dataset's score trend from the run store.
#pragma once

#include <string>
#include <vector>

#include "plan/read_options.h"
#include "report/report.h"
#include "store/run_store.h"
#include "util/status.h"

namespace griffin {

struct ValidateHtmlInput {
  const Report* report = nullptr;
  std::vector<std::string> inputs;         // as read (expanded)
  ReadOptions read_options;
  int threads = 0;
  std::vector<std::string> columns;        // the rule file's columns: the profile shows these
  RunStore* store = nullptr;               // null: no history (--no-store, or the store failed)
  std::string no_store_reason;             // shown in place of the trend when store is null
};

// Writes the page to `path` atomically. A profile or history that cannot be
// made is a note on the page, not an error; errors: writing the file (an
// InputError naming it, exit 3).
Status WriteValidateHtml(const std::string& path, const ValidateHtmlInput& input);

}  // namespace griffin
