// Turns a finished run into run-store records: the check results, the column
// profiles and the lineage of inputs (size, mtime) and outputs.
#pragma once

#include <string>
#include <vector>

#include "report/report.h"
#include "sinks/row_sink.h"
#include "store/run_store.h"

namespace griffin {

// ISO 8601 UTC with microseconds, e.g. 2026-12-02T18:01:13.123456Z.
std::string IsoNow();

// A fresh run id: a random UUID (version 4). Thread-safe.
std::string NewRunId();

// Inputs with their size and mtime (from stat; -1 for "-"), rows from the report.
std::vector<InputLineage> DescribeInputs(const std::vector<std::string>& paths, const std::vector<int64_t>& rows);

FinishRunRequest MakeFinishRequest(const Report& report, const std::string& report_json,
                                   const std::vector<InputLineage>& inputs,
                                   const std::vector<OutputSummary>& outputs);

}  // namespace griffin
