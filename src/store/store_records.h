// Turns a finished run into run-store records: the check results, the column
// profiles and the lineage of inputs (size, mtime) and outputs.
#pragma once

#include <string>
#include <vector>

#include "report/report.h"
#include "rules/rule_set.h"
#include "sinks/row_sink.h"
#include "store/run_store.h"

namespace griffin {

// ISO 8601 UTC with microseconds, e.g. 2026-12-02T18:01:13.123456Z.
std::string IsoNow();

// A fresh run id: a random UUID (version 4). Thread-safe.
std::string NewRunId();

// Inputs with their size and mtime (from stat; -1 for "-"), or what their
// adapter says identifies them (a URI, described with its credentials and
// recorded as RedactUri shows it), rows from the report.
std::vector<InputLineage> DescribeInputs(const std::vector<std::string>& paths, const std::vector<int64_t>& rows);

// Inputs known by name only (in-memory data, a Spark job's source): no
// size, mtime or etag; `rows` by input index (0 where missing).
std::vector<InputLineage> NamedInputs(const std::vector<std::string>& names, const std::vector<int64_t>& rows);

// The begin record of a new run of `rules` now: a fresh run id, the rule
// file's text and sha256, and who runs it (`origin`: cli, python, spark...).
BeginRunRequest MakeBeginRequest(const RuleSet& rules, const std::string& origin);

FinishRunRequest MakeFinishRequest(const Report& report, const std::string& report_json,
                                   const std::vector<InputLineage>& inputs,
                                   const std::vector<OutputSummary>& outputs);

// Records a run validated elsewhere (griffin.spark: merged partial states)
// in the store at `store_uri`, begun and finished at once: `report` gets the
// new run id and `inputs` (rows per input), then its JSON is stored as the
// CLI stores it. `origin`: who ran it (spark). Errors: StoreError, or a
// UsageError for a URI of no store form.
Result<RunTicket> RecordFinishedRun(const std::string& store_uri, const RuleSet& rules, Report* report,
                                    const std::vector<std::string>& inputs, const std::vector<int64_t>& input_rows,
                                    const std::string& origin);

}  // namespace griffin
