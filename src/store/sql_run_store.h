// SqlRunStore: the RunStore of run_store.h over a SqlConnection, one
// implementation for both backends (SQLite and PostgreSQL).
//
// Every write is one transaction, so a run is either "running" (begun, and
// its process finished nothing yet or was killed), "complete" (FinishRun:
// the run row and all its child rows together), "aborted", or
// "record_failed" (FinishRun failed; only the status and reason are kept);
// never half recorded.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "store/run_store.h"
#include "store/sql_connection.h"

namespace griffin {

// Runs of one dataset still "running" after this long are marked aborted by
// the next BeginRun of that dataset.
inline constexpr int64_t kStaleRunSeconds = 24 * 3600;

class SqlRunStore : public RunStore {
 public:
  // `conn` is already migrated to kLatestMigration.
  explicit SqlRunStore(std::unique_ptr<SqlConnection> conn) : conn_(std::move(conn)) {}

  Result<RunTicket> BeginRun(const BeginRunRequest& request) override;
  Status FinishRun(const std::string& run_id, const FinishRunRequest& request) override;
  Status AbortRun(const std::string& run_id, const std::string& reason) override;
  Status MarkRecordFailed(const std::string& run_id, const std::string& reason) override;
  Result<std::vector<RunSummary>> History(const std::string& dataset, int limit) override;
  Result<std::optional<std::string>> ReportJson(const std::string& run_id) override;
  Result<std::optional<std::string>> RunProfile(const std::string& run_id) override;
  Result<std::optional<std::string>> LastPassedRunWithProfile(const std::string& dataset) override;
  Result<std::vector<MetricPoint>> MetricHistory(const std::string& dataset, const std::string& column,
                                                 const std::string& metric, int limit) override;
  Result<RunIdMatches> FindRunIds(const std::string& prefix, int limit) override;
  Result<std::vector<RuleVersionRecord>> RuleVersions(const std::string& dataset) override;
  Result<std::optional<std::string>> CachedSchema(const SchemaCacheKey& key) override;
  Status CacheSchema(const SchemaCacheKey& key, const std::string& schema_json) override;
  Result<std::optional<std::string>> PreviousSchema(const std::string& path,
                                                   const std::string& rules_sha256) override;
  Result<int64_t> RecordRuleVersion(const std::string& dataset, const std::string& sha256, const std::string& text,
                                    const std::string& path, const std::string& first_seen) override;
  Result<std::optional<WatermarkRecord>> Watermark(const std::string& dataset, const std::string& source,
                                                   const std::string& column) override;
  Status DropSchemaCache(const std::string& dataset) override;
  std::string Describe() const override { return conn_->Describe(); }

 private:
  // OK when `run_id` is running; otherwise a StoreError saying what it is.
  Status MarkFinished(const std::string& run_id, const FinishRunRequest& request);
  Status WriteChildRows(const std::string& run_id, const FinishRunRequest& request);
  Status NotRunning(const std::string& run_id, const char* action);
  // Ends a running run as `status` (aborted | record_failed) with `reason`.
  Status EndRunWithout(const std::string& run_id, const char* status, const std::string& reason,
                       const char* action);
  // Adds the version with the dataset's next number unless it is known.
  // Runs inside a write transaction that holds the dataset's row lock (so
  // two writers never take the same number).
  Status InsertRuleVersion(const std::string& dataset, const std::string& sha256, const std::string& text,
                           const std::string& path, const std::string& first_seen);

  std::unique_ptr<SqlConnection> conn_;
};

}  // namespace griffin
