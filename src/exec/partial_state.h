// A partial validation state: what the in-order merger holds after some rows
// (design.md "One mergeable state"), as bytes, so that parts of an input
// validated apart (Spark partitions, files on several machines) merge into
// the report of the whole.
//
//   Merger part(plan, {.row_offset = 1000, .keep_partial_state = true});
//   ... part.Merge(batch) ...
//   std::string bytes = PartialState::Serialize(part);
//   ASSIGN_OR_RETURN(Report report, PartialState::MergeAll(plan, {bytes_a, bytes_b}, names));
//
// Held: per-check evaluated/violation counts, rows, bad and malformed rows,
// schema errors, the first `max_violations` violations per check, table-metric
// aggregates (ColumnMetrics: moments, extremes, distinct keys, quantile
// sketches) and every `unique` check's keys with their first row.
//
// Row ids: a part's rows are numbered row_offset, row_offset + 1, ...; parts
// must not overlap. MergeAll merges in row-id order, whatever order the states
// come in, and `unique`'s first occurrence is the smallest row id: the rows
// of a later part that repeat a key of an earlier one become violations (and
// bad rows, for an error check, unless bad already). So counts, bad rows,
// the score, the listed violations and integer/extreme/distinct metrics equal
// one run over the rows in row-id order; float sums and moments equal it
// within rounding (combined, not re-added).
//
// Format: "griffin-partial-1", the Griffin version, the rule file's sha256,
// then the body. A state of another Griffin version or rule file is refused
// (InputError naming it), as is a corrupt one. Column profiles (run-store
// summaries) and JSON-lines column presence are not held: partial states are
// for Arrow data.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "exec/merger.h"
#include "plan/plan.h"
#include "report/report.h"
#include "sinks/row_sink.h"
#include "util/status.h"

namespace griffin {

class ByteReader;

// A row that became a violation only when the parts were merged: a part's
// first occurrence of a key that an earlier part holds (an error `unique`).
struct MergedRowError {
  int64_t row;       // row id
  RowError error;    // check name and message, as _griffin_errors has them
};

// A row whose `unique` key an earlier part holds: found by MergeKeyShard.
struct KeyDuplicate {
  int64_t row;       // the later part's first occurrence of the key
  int64_t first;     // the key's first row over all parts
  std::string key;   // PartialKey(hash, key bytes)
  bool good;         // the row was not bad in its part
};
struct KeyDuplicates;  // every shard's, by check (partial_state_shards.cc)

class PartialState {
 public:
  // Whether a later part's keys that repeat an earlier part's become
  // `unique` violations when merged (kAcrossParts, the whole's report), or
  // each part's `unique` verdicts stand as they are (kPerPart: a stream whose
  // records were already routed by their micro-batch's verdicts; no key set is
  // kept for the whole).
  enum class UniqueScope { kAcrossParts, kPerPart };

  // The most key shards a state may be split into.
  static constexpr int kMaxKeyShards = 1 << 16;

  // The merger's state as bytes; it must have been built with
  // MergerOptions::keep_partial_state. `text_input` as Merger::Finish takes it.
  // `key_shards` > 0: the `unique` keys (with their first row and whether it
  // was good) leave the state, split by their hash into `key_shards` blobs in
  // `*shards`, so that each shard is merged where a cluster's hash shuffle
  // sends it (MergeKeyShard) and the driver gets the states without keys.
  static std::string Serialize(const Merger& merger, bool text_input, int key_shards = 0,
                               std::vector<std::string>* shards = nullptr);

  // Key sharding (partial_state_shards.cc). Every part's blob of one shard,
  // in any order (names[i] names blobs[i] in errors) -> the shard's
  // duplicates: each key's rows after its first over all the parts, as bytes
  // for MergeAll's `key_duplicates`. Memory: the shard's distinct keys.
  static Result<std::string> MergeKeyShard(std::shared_ptr<const Plan> plan, const std::vector<std::string_view>& blobs,
                                           const std::vector<std::string>& names);
  // The shard of a key's hash, in [0, shards).
  static int ShardOfKey(uint64_t hash, int shards);

  // Merges `states` (names[i] names states[i] in errors) into one report, as
  // Merger::Finish gives it. Errors: InputError for a corrupt state, one of
  // another version or rule file, or parts whose rows overlap.
  // `row_errors`, when set, receives every MergedRowError (by row id), so
  // that the parts' clean/quarantine outputs can be made the whole's.
  // `key_duplicates`: when the states' keys were sharded (Serialize's
  // key_shards), MergeKeyShard's output for every shard, exactly once each;
  // InputError when one is missing or covers other parts than `states`.
  static Result<Report> MergeAll(std::shared_ptr<const Plan> plan, const std::vector<std::string_view>& states,
                                 const std::vector<std::string>& names,
                                 std::vector<MergedRowError>* row_errors = nullptr,
                                 const std::vector<std::string_view>& key_duplicates = {});

  // The state of the parts together, as one part covering their rows (so
  // merges can be grouped in any way: a tree of executors, files per day).
  static Result<std::string> MergeStates(std::shared_ptr<const Plan> plan,
                                         const std::vector<std::string_view>& states,
                                         const std::vector<std::string>& names);

 private:
  static Result<std::unique_ptr<Merger>> MergeParts(std::shared_ptr<const Plan> plan,
                                                    const std::vector<std::string_view>& states,
                                                    const std::vector<std::string>& names,
                                                    std::vector<MergedRowError>* row_errors,
                                                    const std::vector<std::string_view>& key_duplicates);
  friend class StateAccumulator;
  static Status Read(std::string_view bytes, const std::string& name, Merger* into, int64_t* end_row);
  // Reads a blob's magic, Griffin version and rules sha256: InputError naming
  // `name` (a `what`) when it is not one, or of another version or rule file.
  static Status ReadHeader(ByteReader* in, std::string_view magic, std::string_view what, const std::string& name,
                           const Plan& plan);
  // Adds `later` (rows all after into's) to `into`. `sharded`: the parts'
  // keys were sharded, and these are their duplicates (else the key sets).
  static void Absorb(Merger* into, Merger& later, std::vector<MergedRowError>* row_errors,
                     UniqueScope unique = UniqueScope::kAcrossParts, const KeyDuplicates* sharded = nullptr);
  // The parts' key shards (Serialize) and MergeKeyShard's outputs.
  static std::vector<std::string> WriteKeyShards(const Merger& merger, int shards);
  // The checks with a key set (their keys are sharded), in check order.
  static std::vector<size_t> KeyedChecks(const Merger& merger);
  // `like`: a merger of the states' plan.
  static Result<std::unique_ptr<KeyDuplicates>> ReadKeyDuplicates(const Merger& like,
                                                                  const std::vector<std::string_view>& blobs,
                                                                  int shards, std::vector<int64_t> part_offsets);
  static Report FinishMerged(Merger& whole);
};

}  // namespace griffin
