// A Validator run recorded in a run store as `griffin validate` records its
// runs: for library callers (griffin.Validator.validate(..., store=URI)).
//
// Begin() opens the store, records the run as begun (with its rule version)
// and, for a rule file with `source.incremental` and one database input,
// reads the stored watermark (api/incremental_run.h). Apply() sets the run's
// options: the increment's bounds, the store as its history checks' context
// (drift baselines such as last_passed, anomaly history), and the column
// profiles the record keeps. Finish() gives the report its run id and
// `increment`, compares the input's schema with the cached one, and writes
// the record (report, profiles, lineage, the new watermark) in one
// transaction. A run that failed is Abort()ed; one neither finished nor
// aborted is aborted when destroyed, never left "running".
//
//   ASSIGN_OR_RETURN(auto run, RecordedRun::Begin(validator, "runs.db", paths, "python"));
//   ValidationOptions options;
//   run->Apply(&options);
//   Result<ValidationResult> result = validator->ValidatePaths(paths, options);
//   if (!result.ok()) { run->Abort(result.status().message()); return result.status(); }
//   RETURN_IF_ERROR(run->Finish(&result->report));
//
// Errors: a `store_uri` of no store form is a UsageError; a store that cannot
// be opened or written is a StoreError. Two runs of one incremental dataset
// at once read the same increment (as two `griffin validate` runs do); the
// later record's watermark stands.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/incremental_run.h"
#include "api/validator.h"
#include "history/history_context.h"
#include "store/run_store.h"
#include "util/status.h"

namespace griffin {

class RecordedRun {
 public:
  // `inputs`: the paths or URIs the run reads, as given (empty for in-memory
  // data, which has no increment: every row is read). `origin`: who ran it
  // (the store's runs.origin, e.g. "python"). `profile_every_column`: the
  // record keeps every declared column's profile, not only the drift-checked
  // ones (griffin validate --store-profiles all).
  static Result<std::unique_ptr<RecordedRun>> Begin(std::shared_ptr<const Validator> validator,
                                                    const std::string& store_uri, std::vector<std::string> inputs,
                                                    const std::string& origin, bool profile_every_column = false);
  ~RecordedRun();
  RecordedRun(const RecordedRun&) = delete;
  RecordedRun& operator=(const RecordedRun&) = delete;

  // The options a recorded run needs, set in `options` (which must not
  // outlive this run: its history context is this run's).
  void Apply(ValidationOptions* options) const;
  // Records the finished run; `report` gets its run id. Once only.
  Status Finish(Report* report);
  // Marks the run failed with `why`. Once; nothing after Finish.
  void Abort(const std::string& why);

  const std::string& run_id() const { return run_id_; }
  const std::optional<IncrementPlan>& increment() const { return increment_; }

 private:
  RecordedRun() = default;

  std::shared_ptr<const Validator> validator_;
  std::unique_ptr<RunStore> store_;
  std::vector<std::string> inputs_;
  std::string run_id_;
  std::optional<IncrementPlan> increment_;
  std::optional<ValidationOptions::IncrementBounds> bounds_;  // with increment_
  HistoryContext history_;
  bool profile_every_column_ = false;
  bool ended_ = false;
};

}  // namespace griffin
