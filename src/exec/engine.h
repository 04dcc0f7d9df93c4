// Runs a compiled plan over an input source on all cores and returns the
// report. Pipeline: the calling thread reads chunks in order (I/O, cheap) and
// merges results in order; `threads` workers decode chunks and evaluate them.
// At most 2 * threads + 1 chunks are in flight, which bounds memory by
// (batch size x threads) plus what unique/distinct must keep. An input of a
// single chunk (a small in-memory batch) and a lockstep run (max_in_flight 1)
// are evaluated on the calling thread: no worker is started.
//
//   ASSIGN_OR_RETURN(auto source, OpenInputs(paths, read_options));
//   ASSIGN_OR_RETURN(Report report, RunValidation(plan, *source, run_options));
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "exec/batch_evaluator.h"
#include "exec/batch_result_pool.h"
#include "exec/merger.h"
#include "exec/prior_unique_keys.h"
#include "io/input_source.h"
#include "plan/plan.h"
#include "report/report.h"
#include "sinks/row_sink.h"
#include "util/status.h"

namespace griffin {

struct Progress {
  int64_t rows = 0;
  int64_t bytes_read = 0;
  int64_t total_bytes = -1;   // -1 when unknown (stdin)
  double elapsed_s = 0;
};

// The most worker threads a run may ask for: more than any machine's cores
// (threads beyond the cores only cost memory), and far below the point
// where a system runs out of threads. Front ends refuse more (exit 2).
inline constexpr int kMaxThreads = 1024;

struct RunOptions {
  int threads = 0;                 // 0: all cores (at most kMaxThreads)
  int64_t max_violations = kDefaultMaxViolations;  // listed per check
  // Schema errors found by an earlier pass over the same input (see
  // Report::rows_before_schema_error): every row is bad from the first batch.
  std::vector<SchemaError> known_schema_errors;
  // Called from the calling thread after merged batches, at most every 100 ms.
  std::function<void(const Progress&)> progress;
  // Receives each batch's row verdicts in input order (clean/quarantine outputs).
  std::function<Status(const RowVerdicts&)> on_rows;
  // Called once after the last batch's on_rows (not after a failure): a
  // consumer that finishes its work later (sinks/output_pipeline.h) ends it
  // here, and its error fails the run as an on_rows error does.
  std::function<Status()> on_rows_done;
  // Compute per-column profiles (Report::column_summaries) for the run store.
  bool profile_columns = false;
  // Also profile input values as `griffin profile` does (Report::profile):
  // the drift-checked columns, for drift checks and the run store, or every
  // declared column, the profile a recorded run may store (later drift
  // baselines, the run's HTML page).
  TableProfiling table_profiling = TableProfiling::kNone;
  // Chunks read ahead of the merge; 0: 2 * threads + 1. 1 reads the next
  // chunk only after the previous one's on_rows returned (a source fed by a
  // client that waits for each batch's result, such as an Arrow Flight exchange).
  int64_t max_in_flight = 0;
  // Optional: `unique` keys of earlier runs (exec/prior_unique_keys.h); not owned.
  PriorUniqueKeys* prior_unique = nullptr;
  // The first row's id (MergerOptions::row_offset): a part of a larger input.
  int64_t row_offset = 0;
  // When set, receives the run's partial state (src/exec/partial_state.h)
  // before the report is finished.
  std::string* partial_state = nullptr;
  // With partial_state: > 0 splits its `unique` keys into that many shards,
  // written to partial_key_shards (PartialState::Serialize's key_shards).
  int key_shards = 0;
  std::vector<std::string>* partial_key_shards = nullptr;
  // The bytes `unique` and exact `distinct_count` states may hold before they
  // spill to unnamed files under tmp_dir (MergerOptions::memory_limit); 0: no limit.
  int64_t memory_limit = 0;
  std::string tmp_dir;
  // A run with on_rows whose `unique` state would pass memory_limit: kHold
  // holds it past the limit (Report::unspillable_state_bytes), kStop fails
  // the run with StatusCode::kResourceLimit (the caller then runs twice).
  UniqueOverLimit unique_over_limit = UniqueOverLimit::kHold;
  // A two-pass run (MergerOptions): the first pass sets unique_repeats_out,
  // which receives every `unique` check's repeat log; the second passes them
  // as known_unique_repeats.
  UniqueRepeatLogs* unique_repeats_out = nullptr;
  UniqueRepeatLogs known_unique_repeats;
  // Optional, not owned: batch results are taken from it and given back once
  // merged, so their buffers serve the next batch and the next run (a
  // Validator's, exec/batch_result_pool.h).
  BatchResultPool* result_pool = nullptr;
};

// Errors: input errors (exit 3) from reading/decoding, rule errors (exit 2)
// from binding expressions to a typed input's schema, an internal error when
// not one worker thread can be started (a run whose system refuses only
// some of its threads goes on with those that started).
Result<Report> RunValidation(std::shared_ptr<const Plan> plan, InputSource& source, const RunOptions& options);

// The number of worker threads `threads` resolves to (at most kMaxThreads).
int ResolveThreads(int threads);

}  // namespace griffin
