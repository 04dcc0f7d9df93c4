// A run's HTML page from the run store: its stored report, the dataset's
// score trend and, when stored with the run, its profile and drift. Shared by
// `griffin report RUN_ID` and `griffin serve`'s /ui/.
//
//   ASSIGN_OR_RETURN(std::string html, StoredRunPage(*store, run_id, {}));
#pragma once

#include <string>
#include <vector>

#include "report/html/html_page.h"
#include "store/run_store.h"
#include "util/status.h"

namespace griffin {

// How many of the dataset's runs the score trend shows.
inline constexpr int kTrendRuns = 50;

// The dataset's complete runs (the newest kTrendRuns), oldest first.
Result<std::vector<ScorePoint>> ScoreHistory(RunStore& store, const std::string& dataset);

struct StoredPageLinks {
  std::vector<std::pair<std::string, std::string>> nav;  // header links
  std::string run_href_prefix;                           // links the trend's runs; empty: none
};

// Errors: a UsageError "no finished run 'ID' in STORE" when the store has no
// report for `run_id` (a whole id); InputError when the stored report is not
// one; StoreErrors from the store.
Result<std::string> StoredRunPage(RunStore& store, const std::string& run_id, const StoredPageLinks& links);

}  // namespace griffin
