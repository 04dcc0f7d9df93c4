// The index page of `griffin serve`'s /ui/: each dataset with its recent
// runs (a score trend and a sortable table linking each run's page).
//
//   std::string html = RenderIndexPage("griffin serve", datasets, "/ui/runs/");
#pragma once

#include <string>
#include <vector>

#include "store/run_store.h"

namespace griffin {

struct DatasetRuns {
  std::string dataset;
  std::vector<RunSummary> runs;  // newest first, as RunStore::History gives them
  std::string note;              // shown when `runs` is empty ("no runs recorded yet")
};

// Sections: one <section id="datasets"> holding a <div class="dataset"> per
// dataset, its runs in <table id="runs-N" class="sortable">.
std::string RenderIndexPage(const std::string& title, const std::vector<DatasetRuns>& datasets,
                            const std::string& run_href_prefix);

}  // namespace griffin
