// The JSON bodies of the service's small answers: errors, GET /v1/datasets,
// GET /v1/runs (docs/openapi.yaml has their schemas).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "server/dataset_registry.h"
#include "store/run_store.h"

namespace griffin::server {

// {"error": "<message>"}, or {"error": "<message>", "code": "<code>"} when
// `code` is not empty (service_status.h lists the codes).
std::string ErrorJson(const std::string& message, const std::string& code = "");

// {"datasets": [{"name", "file", "rules_sha256", "version", "generation",
//   "loaded_at", "description", "columns": [..], "training": bool}, ...]}
// "version" is `version_of` the dataset (null when nullopt); "generation"
// counts this process's loads of the file (1, then +1 per reload).
std::string DatasetListJson(const std::vector<std::shared_ptr<const Dataset>>& datasets,
                            const std::function<std::optional<int64_t>(const Dataset&)>& version_of);

// {"dataset": .., "runs": [{"run_id", "run_number", "version" (= run_number),
//   "rules_version", "rules_sha256", "started_at", "ended_at", "status", "rows",
//   "bad_rows", "quality_score", "passed", "key_id", "origin"}, ...]}
std::string RunListJson(const std::string& dataset, const std::vector<RunSummary>& runs);

}  // namespace griffin::server
