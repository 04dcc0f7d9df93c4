// The in-order stage of a run: takes BatchResults strictly in input order and
// does everything that depends on order or on the whole input: first
// occurrences for `unique`, table-check aggregates, the violations list
// (capped per check), bad-row counts, the `malformed` check of text inputs and
// the schema-error rule (every row bad, quality_score 0). Single-threaded by
// design; this is what makes the report identical for any thread count and
// batch size.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <memory>
#include <vector>

#include "exec/batch_result.h"
#include "exec/column_metrics.h"
#include "exec/int_key_set.h"
#include "exec/unique_spill.h"
#include "exec/prior_unique_keys.h"
#include "exec/repeat_log.h"
#include "exec/unique_set.h"
#include "plan/plan.h"
#include "report/report.h"
#include "sinks/row_sink.h"

namespace griffin {

// Per check index: a `unique` check's repeats on disk (repeat_log.h); null for
// the other checks.
using UniqueRepeatLogs = std::vector<std::shared_ptr<RepeatLog>>;

// What a merge does when a `unique` state would pass memory_limit in a run
// whose `unique` states may not spill (a row consumer, prior keys, a partial
// state): kHold keeps it in memory past the limit (Report::unspillable_state_bytes
// says how far); kStop fails the merge with StatusCode::kResourceLimit, so that
// the caller can run the input twice instead (log_unique_repeats, then
// known_unique_repeats: the CLI's two-pass run, docs/engine.md).
enum class UniqueOverLimit { kHold, kStop };

struct MergerOptions {
  // Row violations listed per check (the `malformed` check included).
  int64_t max_violations = kDefaultMaxViolations;
  // Schema errors known before the first batch (found by an earlier pass over
  // the same input): every row is bad from the first batch on.
  std::vector<SchemaError> known_schema_errors;
  // Optional: `unique` keys of earlier runs (prior_unique_keys.h); not owned.
  PriorUniqueKeys* prior_unique = nullptr;
  // The first row's id (row ids are row_offset, row_offset + 1, ... in
  // input order): a part of a larger input (a Spark partition) numbers its
  // rows as the whole does.
  int64_t row_offset = 0;
  // Keep what a partial state needs beyond the report (src/exec/partial_state.h):
  // the keys of listed unique violations and the unique first occurrences
  // that are not bad. Costs 8 bytes per distinct key of an error `unique`.
  bool keep_partial_state = false;
  // The bytes the `unique` and exact `distinct_count` states may hold (0: no
  // limit). Past it the largest states spill their keys to unnamed files
  // under `tmp_dir` (key_spill.h) and FinishSpills() decides them: the report
  // is the in-memory path's, plus Report::spill. `unique` states spill only
  // in a run with no row consumer, no prior keys and no partial state, whose
  // row verdicts are not needed before the end; `distinct_count` ones in any
  // run without a partial state.
  int64_t memory_limit = 0;
  std::string tmp_dir;
  UniqueOverLimit unique_over_limit = UniqueOverLimit::kHold;
  // The first pass of two (no row consumer): every `unique` check also writes
  // its repeats, in memory or spilled, to a RepeatLog under tmp_dir
  // (TakeRepeatLogs after FinishSpills).
  bool log_unique_repeats = false;
  // The second pass: each check with a log here takes its repeats (rows and
  // first rows) from it, in row order, instead of keeping its keys, so its
  // counts, listed violations and row verdicts are the first pass's with no
  // key state at all. Not with prior keys or a partial state.
  UniqueRepeatLogs known_unique_repeats;
};

// A unique key as partial states keep it: the 8-byte hash (a numeric
// column's key itself), then the key bytes (empty for a numeric column).
std::string PartialKey(uint64_t hash, std::string_view key);

class Merger {
 public:
  // Receives every batch's row verdicts, in input order (clean/quarantine
  // sinks). Once a schema error is known every row is bad, and each row's
  // errors hold one entry per schema error, check "schema".
  using RowConsumer = std::function<Status(const RowVerdicts&)>;

  Merger(std::shared_ptr<const Plan> plan, MergerOptions options, RowConsumer row_consumer = nullptr);

  // Merges the next batch (in input order). Errors come from the row consumer.
  Status Merge(BatchResult& result);

  // Builds the report (checks, verdict, score). Inputs/ids/timing are the
  // caller's. `text_input`: the input was text (InputSource::is_text), so the
  // report lists the `malformed` check first (also known from text batches).
  Report Finish(bool text_input);

  // Decides what spilled states left open (MergerOptions::memory_limit): the
  // repeats of spilled `unique` keys (counts, bad rows, the violations list)
  // and spilled distinct counts. Call after the last Merge, before Finish.
  // Errors: reading the spill files back.
  Status FinishSpills();

  // Sizes the unique/distinct sets for about `expected_rows` rows, so that a
  // large input does not rehash its way up (the engine estimates it from the
  // first chunk's rows per byte). Each set is sized for its keys so far scaled
  // to the expected rows (keys grow at most as fast as rows): a column of few
  // values keeps a small table. Call after the first Merge.
  void ReserveForRows(int64_t expected_rows);

  // After FinishSpills of a run with log_unique_repeats: the repeat logs,
  // ready to be read (MergerOptions::known_unique_repeats of the second pass).
  Result<UniqueRepeatLogs> TakeRepeatLogs();

  // The unique/distinct states' bytes in memory now.
  int64_t state_bytes() const { return StateBytes(/*with_growth=*/false); }

  int64_t rows() const { return rows_; }
  int64_t row_offset() const { return row_offset_; }
  int64_t bad_rows() const { return bad_rows_; }

 private:
  friend class PartialState;
  struct PendingViolation {
    int64_t row;
    int position;       // check index; -1 for malformed
    int64_t first_row;  // unique: first occurrence
    int32_t batch_row;
    size_t ordinal;     // index into a per-check list
  };
  // Adds the batch's unique keys; `new_firsts`: the batch rows first seen in
  // an error `unique` (filled only when keeping a partial state).
  // Errors: the repeat logs' (writing, reading).
  Status MergeUnique(BatchResult& result, int64_t base, std::vector<std::vector<int64_t>>* first_rows,
                     std::vector<int32_t>* new_firsts);
  // Two-pass runs (merger_spill.cc): opens a log per `unique` check
  // (`log_repeats`, the first pass) or takes the `known` ones and drops those
  // checks' key sets (the second); errors go to repeat_log_status_.
  void SetUpRepeatLogs(UniqueRepeatLogs known, bool log_repeats);
  // Appends the batch's keys of spilled check c, with their values as read, in row order.
  void SpillBatchKeys(size_t c, const BatchResult& result, int64_t base);
  // A check whose repeats come from its log (known_unique_repeats): the batch's.
  Status TakeKnownRepeats(size_t check, BatchResult& result, int64_t base, std::vector<int64_t>* firsts);
  // Adds the batch's schema problems to schema_errors_ (each once).
  void AddSchemaProblems(const BatchResult& result);
  // Lists the batch's first violations (up to max_violations_ per check);
  // (*listed)[check][ordinal] = the index in violations_list_ of a listed one.
  void CollectViolations(const BatchResult& result, int64_t base,
                         const std::vector<std::vector<int64_t>>& first_rows,
                         std::vector<std::vector<int32_t>>* listed);
  CheckReport TableCheckReport(const TablePlan& table) const;
  CheckReport MalformedCheckReport() const;
  // Hands the row verdicts to the row consumer, reusing the messages of listed violations.
  Status EmitRowVerdicts(const BatchResult& result, int64_t base,
                         const std::vector<std::vector<int64_t>>& first_rows,
                         const std::vector<std::vector<int32_t>>& listed);
  std::vector<ColumnSummary> ColumnSummaries() const;
  // The unique/distinct states' bytes in memory; `with_growth`: each with
  // what its table's growth would reach at its peak if the next batch (taken
  // to be as large as the last) brought only new keys, so that a state spills
  // before a doubling (old and new table together) would pass the limit.
  int64_t StateBytes(bool with_growth = true) const;
  int64_t UniqueStateBytes(size_t check, bool with_growth = true) const;
  int64_t DistinctStateBytes(size_t slot, bool with_growth = true) const;
  // How much of a spilled state FinishSpills reads at a time (a quarter of
  // the limit, at least 1 MiB): the finishing pass stays under the limit too.
  int64_t FinishPartitionBytes() const;
  // Spills the largest states while StateBytes() is over the memory limit.
  Status SpillIfOverLimit();
  // Moves check c's unique keys to `files`; its later keys go there too.
  void SpillUnique(size_t c, std::unique_ptr<KeySpill> files);
  // A row (>= spill_start_row_) found bad by FinishSpills: true the first
  // time it is marked (the caller counts it). Safe from several threads.
  bool MarkBadAfterSpill(int64_t row);
  // Appends the batch's bad flags to bad_bits_ (once a unique state spilled).
  void RecordBadBits(const uint8_t* bad, int64_t rows);

  std::shared_ptr<const Plan> plan_;
  int64_t max_violations_;
  PriorUniqueKeys* prior_unique_;
  int64_t rows_ = 0, bad_rows_ = 0, malformed_rows_ = 0;
  int64_t rows_before_schema_error_ = 0;
  bool saw_text_batch_ = false;
  std::vector<int64_t> evaluated_, violations_;
  std::vector<int64_t> listed_;        // per check index: violations listed so far
  int64_t listed_malformed_ = 0;
  std::vector<std::unique_ptr<UniqueSet>> unique_sets_;      // per check index: string column / row unique
  std::vector<std::unique_ptr<IntKeySet>> int_sets_;         // per check index: numeric column unique
  std::vector<std::unique_ptr<ColumnMetrics>> metrics_;      // per column slot
  std::vector<const CompiledColumnCheck*> column_checks_;    // per check index
  std::vector<int> check_slot_;                              // per check index: column slot or -1
  std::vector<ViolationReport> violations_list_;
  std::vector<SchemaError> schema_errors_;
  std::map<int, std::vector<uint8_t>> json_columns_seen_;   // JSON lines: input -> per slot seen
  RowConsumer row_consumer_;
  std::shared_ptr<TableProfile> table_profile_;              // when the batches carry one
  std::vector<ColumnProfile> profiles_;                      // per slot, when the batches carry them
  std::vector<int64_t> input_rows_;                          // by input index
  std::vector<std::string> input_schemas_;                   // by input index (JSON)
  // Partial states (options.keep_partial_state) and merged ones:
  int64_t row_offset_ = 0;
  int64_t end_row_ = -1;                                     // a merged state's last row id + 1 (-1: offset + rows)
  bool keep_partial_ = false;
  bool text_input_ = false;                                  // a merged state's inputs were text
  std::vector<int> violation_positions_;                     // per violations_list_ entry: check index, -1 malformed
  std::vector<std::string> violation_keys_;                  // per entry: a unique check's key (hash + bytes), else ""
  std::vector<std::vector<std::string>> batch_dup_keys_;     // per check: this batch's listed duplicates' keys
  std::vector<int64_t> good_firsts_;                         // rows first in an error `unique`, not bad
  int key_shards_ = 0;                                       // a read state whose unique keys were sharded
  // Spilling (MergerOptions::memory_limit):
  int64_t memory_limit_ = 0;
  int64_t last_batch_rows_ = 0;                              // the last merged batch's rows
  std::string tmp_dir_;
  bool unique_may_spill_ = false;
  int64_t unspillable_state_bytes_ = 0;  // Report::unspillable_state_bytes
  std::vector<std::unique_ptr<UniqueSpill>> unique_spills_;  // per check index, once spilled
  int64_t spill_start_row_ = -1;                             // the first row after a unique state spilled
  int64_t bad_bits_rows_ = 0;                                // rows recorded in bad_bits_
  std::vector<uint64_t> bad_bits_;                           // from spill_start_row_: the row is bad
  std::vector<int> list_positions_;                          // per violations_list_ entry (when unique may spill)
  bool spills_finished_ = false;
  UniqueOverLimit unique_over_limit_ = UniqueOverLimit::kHold;
  // Two-pass runs: the logs written (first pass) or read (second pass).
  UniqueRepeatLogs repeat_logs_;
  bool repeats_known_ = false;
  Status repeat_log_status_;                                 // opening the logs failed
  std::vector<LoggedRepeat> known_scratch_;
};

}  // namespace griffin
