// The run store: every validation run is recorded with its results, the
// rule-file version, per-column metrics and lineage. Backends: SQLite (the
// default, a file under .griffin/ in the working directory) and PostgreSQL
// (a shared store), behind one interface. Schema changes are numbered
// migrations applied on Open (an old store upgrades itself).
//
//   ASSIGN_OR_RETURN(auto store, OpenRunStore(".griffin/griffin.db"));
//   ASSIGN_OR_RETURN(RunTicket ticket, store->BeginRun(begin));
//   ... validate, write outputs ...
//   RETURN_IF_ERROR(store->FinishRun(ticket.run_id, finish));
//
// Concurrency: several processes may use one store at once. Version numbers
// (RunTicket::version) are per dataset, start at 1, increase monotonically and
// are never reused, even for runs that are aborted or crash.
// A run that never finishes stays "running"; BeginRun marks runs of the same
// dataset that have been running for more than 24 hours "aborted". A store
// object is not thread-safe; use one per thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "util/status.h"

namespace griffin {

struct InputLineage {
  std::string path;
  int64_t size = -1;          // bytes, -1 unknown (stdin)
  int64_t mtime_ns = -1;      // modification time, -1 unknown
  std::string etag;           // object stores: the ETag or generation; tables: "schema:VERSION"; empty otherwise
  int64_t rows = 0;
  // Not stored with the run: a table's catalogue schema (SourceIdentity::
  // schema_json), which the schema cache keeps under the version in `etag`.
  std::string schema_json;
};

struct OutputLineage {
  std::string path;
  std::string kind;           // clean | quarantine
  int64_t rows = 0;
  int64_t bytes = 0;
  std::string sha256;
  std::string etag;           // object stores: the ETag or generation; empty otherwise
};

struct CheckResultRecord {
  int position = 0;           // order in the report
  std::string name, column, check, severity;   // column empty for row/table checks
  int64_t evaluated = 0, violations = 0;
  double pass_rate = 1.0;
  std::optional<std::string> observed;          // table checks: the JSON text of the observed value
  bool passed = true;
};

struct ColumnMetricsRecord {
  std::string column;
  int64_t count = 0, nulls = 0;
  std::optional<std::string> min, max;         // as text (numbers, ISO dates/timestamps, strings)
  std::optional<double> mean, stddev;
  int64_t distinct = 0;
  bool distinct_exact = false;                 // false: a HyperLogLog estimate
};

struct BeginRunRequest {
  std::string dataset;
  std::string run_id;            // chosen by the caller (uuid v4)
  std::string started_at;        // ISO 8601 UTC
  std::string griffin_version;
  std::string rules_sha256;
  std::string rules_text;        // stored once per sha256 in rule_versions
  std::string rules_path;
  std::string key_id;            // the caller's API key id (griffin serve); empty: none
  std::string origin;            // cli | http | flight | metrics; empty: not recorded
};

struct RunTicket {
  std::string run_id;
  int64_t version = 0;           // per-dataset sequence number (for --tag-version)
};

// How far an incremental source's rows reach (source.incremental), as the
// last recorded run of the dataset read them.
struct WatermarkRecord {
  std::string source;          // the input, as reports show it (no password)
  std::string column;          // the incremental column
  std::string value;           // the source's serialized watermark (SourceWatermark::value)
  std::string text;            // for people
};

struct FinishRunRequest {
  std::string ended_at;
  int64_t rows = 0, bad_rows = 0, malformed_rows = 0;
  double quality_score = 1.0;
  bool passed = true;
  std::string report_json;       // the full JSON report (griffin show prints it again)
  std::vector<CheckResultRecord> checks;
  std::vector<ColumnMetricsRecord> columns;
  std::vector<InputLineage> inputs;
  std::vector<OutputLineage> outputs;
  // The drift-checked columns' profile (TableProfile::Serialize); empty: none kept.
  std::string profile_state;
  // Incremental sources: where the next run starts (replaces the dataset's
  // watermark of the same source and column, with the run's record).
  std::vector<WatermarkRecord> watermarks;
};

struct RunSummary {
  std::string run_id;
  int64_t version = 0;           // the run's number in its dataset (1, 2, ...), not a rule version
  std::string started_at, ended_at;
  std::string status;            // running | complete | aborted | record_failed
  int64_t rows = 0, bad_rows = 0;
  double quality_score = 0;
  bool passed = false;
  std::string key_id, origin;    // empty when not recorded
  std::string rules_sha256;      // the rule file the run used
  int64_t rules_version = 0;     // that file's RuleVersionRecord::number; 0 if not recorded
};

struct RuleVersionRecord {
  int64_t number = 0;            // 1 for the dataset's first rule file, +1 per new one; never reused
  std::string sha256;
  std::string first_seen;        // ISO 8601 UTC
  std::string text;
  int64_t runs = 0;              // runs that used it
};

// One run's value of a metric (anomaly checks, history/anomaly_checks.h).
struct MetricPoint {
  std::string run_id;
  int64_t version = 0;           // the run's number in its dataset
  std::string started_at;
  double value = 0;
};

// Run ids that start with a prefix (griffin show accepts a unique prefix).
struct RunIdMatches {
  int64_t count = 0;                  // every match
  std::vector<std::string> run_ids;   // the first few, in id order
};

// The schema found on an input, cached per (path, size, mtime) and rules sha256.
// A database table has no size or mtime: its key is its schema version (a hash
// of its catalogue rows), with size and mtime 0. A Delta table likewise: its
// version read ("v=12", the lineage's etag), with size and mtime 0.
struct SchemaCacheKey {
  std::string path;
  int64_t size = -1, mtime_ns = -1;
  std::string rules_sha256;
  std::string version;         // '' for files
};

class RunStore {
 public:
  virtual ~RunStore() = default;
  virtual Result<RunTicket> BeginRun(const BeginRunRequest& request) = 0;
  virtual Status FinishRun(const std::string& run_id, const FinishRunRequest& request) = 0;
  virtual Status AbortRun(const std::string& run_id, const std::string& reason) = 0;
  // A running run whose FinishRun failed (the report could not be written:
  // too big for the database, a full disk, a trigger): status record_failed,
  // with `reason` (FinishRun's error) as its abort_reason, instead of staying
  // "running". Best effort: a store that refuses this write too leaves the
  // run to the stale-run sweep.
  virtual Status MarkRecordFailed(const std::string& run_id, const std::string& reason) = 0;
  // Newest first; at most `limit`.
  virtual Result<std::vector<RunSummary>> History(const std::string& dataset, int limit) = 0;
  virtual Result<std::optional<std::string>> ReportJson(const std::string& run_id) = 0;
  // The profile state FinishRun stored with a run (TableProfile::Serialize's
  // bytes); nullopt when the run has none (or is unknown).
  virtual Result<std::optional<std::string>> RunProfile(const std::string& run_id) = 0;
  // The newest complete run of `dataset` that passed and has a stored
  // profile; nullopt when there is none.
  virtual Result<std::optional<std::string>> LastPassedRunWithProfile(const std::string& dataset) = 0;
  // A metric's values in the newest complete runs of `dataset` that
  // recorded it, newest first; at most `limit`. `column` empty: a run's
  // "row_count", "bad_rows" or "quality_score"; otherwise that column's
  // "null_count", "null_fraction", "distinct_count", "mean", "stddev",
  // "min" or "max" (column_metrics; min/max read as numbers). A run without
  // the value (a mean of no values, a column it did not profile) is skipped.
  virtual Result<std::vector<MetricPoint>> MetricHistory(const std::string& dataset, const std::string& column,
                                                         const std::string& metric, int limit) = 0;
  // Runs (of any dataset and status) whose id starts with `prefix`; at most
  // `limit` ids listed.
  virtual Result<RunIdMatches> FindRunIds(const std::string& prefix, int limit) = 0;
  // Oldest first (by number).
  virtual Result<std::vector<RuleVersionRecord>> RuleVersions(const std::string& dataset) = 0;
  virtual Result<std::optional<std::string>> CachedSchema(const SchemaCacheKey& key) = 0;
  // Stores the schema (JSON text) and drops entries of the same path with
  // another rules sha256.
  virtual Status CacheSchema(const SchemaCacheKey& key, const std::string& schema_json) = 0;
  // The schema cached for `path` under these rules whatever the file's size
  // and mtime (the previous version of a file that has changed since).
  virtual Result<std::optional<std::string>> PreviousSchema(const std::string& path,
                                                           const std::string& rules_sha256) = 0;
  // Records a rule file's version for `dataset` without a run (a server
  // loading rules); a version already known keeps its first_seen and number.
  // Returns its number, as RuleVersions lists it.
  virtual Result<int64_t> RecordRuleVersion(const std::string& dataset, const std::string& sha256,
                                   const std::string& text, const std::string& path,
                                   const std::string& first_seen) = 0;
  // The watermark the last recorded run of `dataset` left for `source` and
  // `column`; nullopt before the first.
  virtual Result<std::optional<WatermarkRecord>> Watermark(const std::string& dataset, const std::string& source,
                                                           const std::string& column) = 0;
  // Drops the schema cache entries of every rule version of `dataset` (its
  // rules changed: earlier snapshots must not be compared against).
  virtual Status DropSchemaCache(const std::string& dataset) = 0;
  virtual std::string Describe() const = 0;   // "sqlite:.griffin/griffin.db" (no passwords)
};

// `uri`: a path ending in .db/.sqlite/.sqlite3 or "sqlite:PATH" (SQLite,
// created with its folder if absent), or postgresql://... / postgres://...
// Errors are StoreErrors (exit 3): "store .griffin/griffin.db: unable to open
// database file", "store postgresql://u@h:5432/db: connection refused", a
// corrupt file ("file is not a database"), wrong credentials; a `uri` of
// none of these forms is a UsageError (CheckRunStoreUri).
Result<std::unique_ptr<RunStore>> OpenRunStore(const std::string& uri);

// OK when `uri` has one of OpenRunStore's forms, else a UsageError (exit 2)
// "--store foo.txt: expected ..."; opens nothing (a front end checks its
// arguments before it starts a run).
Status CheckRunStoreUri(const std::string& uri);

// The default store of a working directory: .griffin/griffin.db.
std::string DefaultStoreUri();

}  // namespace griffin
