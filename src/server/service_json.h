// The JSON bodies of the service's small answers: errors, GET /v1/datasets,
// GET /v1/runs (docs/openapi.yaml has their schemas).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "server/dataset_registry.h"
#include "store/run_store.h"

namespace griffin::server {

// {"error": "<message>"}, or {"error": "<message>", "code": "<code>"} when
// `code` is not empty (service_status.h lists the codes).
std::string ErrorJson(const std::string& message, const std::string& code = "");

// {"datasets": [{"name", "file", "rules_sha256", "version", "loaded_at",
//   "description", "columns": [..], "training": bool}, ...]}
std::string DatasetListJson(const std::vector<std::shared_ptr<const Dataset>>& datasets);

// {"dataset": .., "runs": [{"run_id", "version", "started_at", "ended_at",
//   "status", "rows", "bad_rows", "quality_score", "passed", "key_id", "origin"}, ...]}
std::string RunListJson(const std::string& dataset, const std::vector<RunSummary>& runs);

}  // namespace griffin::server
