#include "store/sql_run_store.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <limits>

#include "util/base64.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

SqlParam Text(const std::string& s) { return SqlParam(s); }
SqlParam Int(int64_t v) { return SqlParam(v); }
SqlParam Real(double v) { return SqlParam(v); }
SqlParam Bool(bool v) { return SqlParam(v); }
SqlParam OptionalText(const std::optional<std::string>& s) {
  return s ? SqlParam(*s) : SqlParam(std::monostate{});
}
SqlParam TextOrNull(const std::string& s) { return s.empty() ? SqlParam(std::monostate{}) : SqlParam(s); }
SqlParam OptionalReal(const std::optional<double>& v) {
  return v ? SqlParam(*v) : SqlParam(std::monostate{});
}

}  // namespace

Result<RunTicket> SqlRunStore::BeginRun(const BeginRunRequest& request) {
  if (request.dataset.empty()) return conn_->Error("cannot begin a run: empty dataset name");
  if (request.run_id.empty()) return conn_->Error("cannot begin a run: empty run id");
  RunTicket ticket;
  ticket.run_id = request.run_id;
  char host_buffer[256] = {};
  ::gethostname(host_buffer, sizeof host_buffer - 1);
  const std::string host = host_buffer;
  RETURN_IF_ERROR(InWriteTransaction(*conn_, [&]() -> Status {
    RETURN_IF_ERROR(Exec(*conn_,
                         "UPDATE runs SET status = 'aborted', ended_at = $1, abort_reason = $2"
                         " WHERE dataset = $3 AND status = 'running' AND started_at < $4",
                         {Text(UtcNowIso8601()), Text("stale: still running after 24 hours"),
                          Text(request.dataset), Text(UtcNowIso8601(-kStaleRunSeconds))}));
    // Runs of this dataset whose process on this host no longer exists were
    // killed or crashed: they will never finish.
    ASSIGN_OR_RETURN(auto running, conn_->Query("SELECT run_id, pid FROM runs WHERE dataset = $1"
                                                " AND status = 'running' AND host = $2 AND pid IS NOT NULL",
                                                {Text(request.dataset), Text(host)}));
    for (const auto& row : running) {
      const int64_t pid = ParseInt(row[1], 0);
      if (pid <= 0 || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
      RETURN_IF_ERROR(Exec(*conn_,
                           "UPDATE runs SET status = 'aborted', ended_at = $1, abort_reason = $2"
                           " WHERE run_id = $3 AND status = 'running'",
                           {Text(UtcNowIso8601()),
                            Text("process " + std::to_string(pid) + " on " + host + " ended without finishing"),
                            Text(row[0].value_or(""))}));
    }
    // The version: the dataset row is created at 2 (this run takes 1) or
    // bumped under its row lock, inside this transaction, so two runs that
    // start at once get consecutive numbers and an aborted transaction
    // hands out none.
    ASSIGN_OR_RETURN(auto rows,
                     conn_->Query("INSERT INTO datasets (name, next_version) VALUES ($1, 2)"
                                  " ON CONFLICT (name) DO UPDATE"
                                  " SET next_version = datasets.next_version + 1"
                                  " RETURNING next_version - 1",
                                  {Text(request.dataset)}));
    if (rows.size() != 1) return conn_->Error("version allocation returned no row");
    ticket.version = ParseInt(rows[0][0], 0);
    RETURN_IF_ERROR(InsertRuleVersion(request.dataset, request.rules_sha256, request.rules_text,
                                      request.rules_path, request.started_at));
    return Exec(*conn_,
                "INSERT INTO runs (run_id, dataset, version, started_at, status,"
                " griffin_version, rules_sha256, rules_path, host, pid, key_id, origin)"
                " VALUES ($1, $2, $3, $4, 'running', $5, $6, $7, $8, $9, $10, $11)",
                {Text(request.run_id), Text(request.dataset), Int(ticket.version),
                 Text(request.started_at), Text(request.griffin_version),
                 Text(request.rules_sha256), Text(request.rules_path), Text(host),
                 Int(static_cast<int64_t>(::getpid())), TextOrNull(request.key_id),
                 TextOrNull(request.origin)});
  }));
  return ticket;
}

Status SqlRunStore::InsertRuleVersion(const std::string& dataset, const std::string& sha256,
                                      const std::string& text, const std::string& path,
                                      const std::string& first_seen) {
  // The SELECT's WHERE keeps SQLite from reading ON CONFLICT as a join; the
  // casts type PostgreSQL's parameters, which appear only in the select list.
  return Exec(*conn_,
              "INSERT INTO rule_versions (dataset, sha256, rules_text, rules_path, first_seen, number)"
              " SELECT CAST($1 AS TEXT), CAST($2 AS TEXT), CAST($3 AS TEXT), CAST($4 AS TEXT),"
              " CAST($5 AS TEXT), COALESCE(MAX(number), 0) + 1 FROM rule_versions WHERE dataset = $1"
              " ON CONFLICT (dataset, sha256) DO NOTHING",
              {Text(dataset), Text(sha256), Text(text), Text(path), Text(first_seen)});
}

Result<int64_t> SqlRunStore::RecordRuleVersion(const std::string& dataset, const std::string& sha256,
                                               const std::string& text, const std::string& path,
                                               const std::string& first_seen) {
  if (dataset.empty()) return conn_->Error("cannot record a rule version: empty dataset name");
  int64_t number = 0;
  RETURN_IF_ERROR(InWriteTransaction(*conn_, [&]() -> Status {
    // The dataset's row lock, as BeginRun takes it; a new dataset's row says
    // its first run will be number 1.
    RETURN_IF_ERROR(Exec(*conn_,
                         "INSERT INTO datasets (name, next_version) VALUES ($1, 1)"
                         " ON CONFLICT (name) DO UPDATE SET next_version = datasets.next_version",
                         {Text(dataset)}));
    RETURN_IF_ERROR(InsertRuleVersion(dataset, sha256, text, path, first_seen));
    ASSIGN_OR_RETURN(auto rows, conn_->Query("SELECT number FROM rule_versions WHERE dataset = $1 AND sha256 = $2",
                                             {Text(dataset), Text(sha256)}));
    if (rows.size() != 1) return conn_->Error("rule version " + sha256 + " of " + dataset + " was not recorded");
    number = ParseInt(rows[0][0]);
    return Status::OK();
  }));
  return number;
}

Status SqlRunStore::DropSchemaCache(const std::string& dataset) {
  return Exec(*conn_,
              "DELETE FROM schema_cache WHERE rules_sha256 IN"
              " (SELECT sha256 FROM rule_versions WHERE dataset = $1)",
              {Text(dataset)});
}

Status SqlRunStore::NotRunning(const std::string& run_id, const char* action) {
  ASSIGN_OR_RETURN(auto rows, conn_->Query("SELECT status FROM runs WHERE run_id = $1",
                                           {Text(run_id)}));
  if (rows.empty()) return conn_->Error("cannot " + std::string(action) + " run " + run_id +
                                        ": no such run");
  return conn_->Error("cannot " + std::string(action) + " run " + run_id + ": it is " +
                      rows[0][0].value_or("?"));
}

Status SqlRunStore::MarkFinished(const std::string& run_id, const FinishRunRequest& r) {
  ASSIGN_OR_RETURN(auto rows,
                   conn_->Query("UPDATE runs SET status = 'complete', ended_at = $2, rows = $3,"
                                " bad_rows = $4, malformed_rows = $5, quality_score = $6,"
                                " passed = $7, report_json = $8"
                                " WHERE run_id = $1 AND status = 'running' RETURNING run_id",
                                {Text(run_id), Text(r.ended_at), Int(r.rows), Int(r.bad_rows),
                                 Int(r.malformed_rows), Real(r.quality_score), Bool(r.passed),
                                 Text(r.report_json)}));
  if (rows.empty()) return NotRunning(run_id, "finish");
  return Status::OK();
}

Status SqlRunStore::WriteChildRows(const std::string& run_id, const FinishRunRequest& r) {
  for (const CheckResultRecord& c : r.checks) {
    RETURN_IF_ERROR(Exec(*conn_,
                         "INSERT INTO check_results (run_id, position, name, column_name,"
                         " check_name, severity, evaluated, violations, pass_rate, observed,"
                         " passed) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
                         {Text(run_id), Int(c.position), Text(c.name), Text(c.column),
                          Text(c.check), Text(c.severity), Int(c.evaluated), Int(c.violations),
                          Real(c.pass_rate), OptionalText(c.observed), Bool(c.passed)}));
  }
  for (size_t i = 0; i < r.columns.size(); ++i) {
    const ColumnMetricsRecord& m = r.columns[i];
    RETURN_IF_ERROR(Exec(*conn_,
                         "INSERT INTO column_metrics (run_id, position, column_name, value_count,"
                         " null_count, min_value, max_value, mean, stddev, distinct_count,"
                         " distinct_exact) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
                         {Text(run_id), Int(static_cast<int64_t>(i)), Text(m.column),
                          Int(m.count), Int(m.nulls), OptionalText(m.min), OptionalText(m.max),
                          OptionalReal(m.mean), OptionalReal(m.stddev), Int(m.distinct),
                          Bool(m.distinct_exact)}));
  }
  if (!r.profile_state.empty()) {
    RETURN_IF_ERROR(Exec(*conn_, "INSERT INTO run_profiles (run_id, state) VALUES ($1, $2)",
                         {Text(run_id), Text(Base64Encode(r.profile_state))}));
  }
  for (size_t i = 0; i < r.inputs.size(); ++i) {
    const InputLineage& in = r.inputs[i];
    RETURN_IF_ERROR(Exec(*conn_,
                         "INSERT INTO run_inputs (run_id, position, path, size_bytes, mtime_ns,"
                         " etag, rows) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                         {Text(run_id), Int(static_cast<int64_t>(i)), Text(in.path),
                          Int(in.size), Int(in.mtime_ns), Text(in.etag), Int(in.rows)}));
  }
  for (const WatermarkRecord& w : r.watermarks) {
    RETURN_IF_ERROR(Exec(*conn_,
                         "INSERT INTO watermarks (dataset, source, column_name, value, value_text, run_id)"
                         " SELECT dataset, $2, $3, $4, $5, run_id FROM runs WHERE run_id = $1"
                         " ON CONFLICT (dataset, source, column_name) DO UPDATE SET value = excluded.value,"
                         " value_text = excluded.value_text, run_id = excluded.run_id",
                         {Text(run_id), Text(w.source), Text(w.column), Text(w.value), Text(w.text)}));
  }
  for (size_t i = 0; i < r.outputs.size(); ++i) {
    const OutputLineage& out = r.outputs[i];
    RETURN_IF_ERROR(Exec(*conn_,
                         "INSERT INTO run_outputs (run_id, position, path, kind, rows,"
                         " size_bytes, sha256, etag) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                         {Text(run_id), Int(static_cast<int64_t>(i)), Text(out.path),
                          Text(out.kind), Int(out.rows), Int(out.bytes), Text(out.sha256), Text(out.etag)}));
  }
  return Status::OK();
}

Status SqlRunStore::FinishRun(const std::string& run_id, const FinishRunRequest& request) {
  // The status change and every child row commit together or not at all.
  return InWriteTransaction(*conn_, [&]() -> Status {
    RETURN_IF_ERROR(MarkFinished(run_id, request));
    return WriteChildRows(run_id, request);
  });
}

Status SqlRunStore::EndRunWithout(const std::string& run_id, const char* status, const std::string& reason,
                                  const char* action) {
  ASSIGN_OR_RETURN(auto rows,
                   conn_->Query("UPDATE runs SET status = $4, ended_at = $2,"
                                " abort_reason = $3"
                                " WHERE run_id = $1 AND status = 'running' RETURNING run_id",
                                {Text(run_id), Text(UtcNowIso8601()), Text(reason), Text(status)}));
  if (rows.empty()) return NotRunning(run_id, action);
  return Status::OK();
}

Status SqlRunStore::AbortRun(const std::string& run_id, const std::string& reason) {
  return EndRunWithout(run_id, "aborted", reason, "abort");
}

Status SqlRunStore::MarkRecordFailed(const std::string& run_id, const std::string& reason) {
  return EndRunWithout(run_id, "record_failed", reason, "mark record_failed");
}

Result<std::vector<RunSummary>> SqlRunStore::History(const std::string& dataset, int limit) {
  int64_t max_rows = limit > 0 ? limit : std::numeric_limits<int64_t>::max();
  ASSIGN_OR_RETURN(auto rows,
                   conn_->Query("SELECT r.run_id, r.version, r.started_at, r.ended_at, r.status, r.rows,"
                                " r.bad_rows, r.quality_score, r.passed, r.key_id, r.origin, r.rules_sha256,"
                                " v.number FROM runs r LEFT JOIN rule_versions v"
                                " ON v.dataset = r.dataset AND v.sha256 = r.rules_sha256"
                                " WHERE r.dataset = $1"
                                " ORDER BY r.version DESC LIMIT $2",
                                {Text(dataset), Int(max_rows)}));
  std::vector<RunSummary> runs;
  runs.reserve(rows.size());
  for (const SqlRow& row : rows) {
    RunSummary s;
    s.run_id = row[0].value_or("");
    s.version = ParseInt(row[1]);
    s.started_at = row[2].value_or("");
    s.ended_at = row[3].value_or("");
    s.status = row[4].value_or("");
    s.rows = ParseInt(row[5]);
    s.bad_rows = ParseInt(row[6]);
    s.quality_score = ParseDouble(row[7]);
    s.passed = ParseBool(row[8]);
    s.key_id = row[9].value_or("");
    s.origin = row[10].value_or("");
    s.rules_sha256 = row[11].value_or("");
    s.rules_version = ParseInt(row[12]);
    runs.push_back(std::move(s));
  }
  return runs;
}

Result<std::optional<std::string>> SqlRunStore::ReportJson(const std::string& run_id) {
  ASSIGN_OR_RETURN(auto rows, conn_->Query("SELECT report_json FROM runs WHERE run_id = $1",
                                           {Text(run_id)}));
  if (rows.empty()) return std::optional<std::string>();
  return rows[0][0];
}

Result<std::optional<std::string>> SqlRunStore::RunProfile(const std::string& run_id) {
  ASSIGN_OR_RETURN(auto rows, conn_->Query("SELECT state FROM run_profiles WHERE run_id = $1", {Text(run_id)}));
  if (rows.empty() || !rows[0][0]) return std::optional<std::string>();
  std::optional<std::string> state = Base64Decode(*rows[0][0]);
  if (!state) return conn_->Error("run " + run_id + ": its stored profile is not base64");
  return state;
}

Result<std::optional<std::string>> SqlRunStore::LastPassedRunWithProfile(const std::string& dataset) {
  ASSIGN_OR_RETURN(auto rows, conn_->Query("SELECT r.run_id FROM runs r JOIN run_profiles p ON p.run_id = r.run_id"
                                           " WHERE r.dataset = $1 AND r.status = 'complete' AND r.passed"
                                           " ORDER BY r.version DESC LIMIT 1",
                                           {Text(dataset)}));
  if (rows.empty()) return std::optional<std::string>();
  return rows[0][0];
}

namespace {

// The value of a column metric from a column_metrics row's value_count,
// null_count, mean, stddev, distinct_count, min_value and max_value (from
// index 3 on); nullopt when the run has none.
std::optional<double> ColumnMetricValue(const SqlRow& row, const std::string& metric) {
  const auto number = [&](size_t index) -> std::optional<double> {
    if (!row[index]) return std::nullopt;
    return ParseFloat64(*row[index]);
  };
  if (metric == "null_count") return number(4);
  if (metric == "null_fraction") {
    const double values = ParseDouble(row[3]), nulls = ParseDouble(row[4]);
    if (values + nulls <= 0) return std::nullopt;
    return nulls / (values + nulls);
  }
  if (metric == "mean") return number(5);
  if (metric == "stddev") return number(6);
  if (metric == "distinct_count") return number(7);
  if (metric == "min") return number(8);
  if (metric == "max") return number(9);
  return std::nullopt;
}

}  // namespace

Result<std::vector<MetricPoint>> SqlRunStore::MetricHistory(const std::string& dataset, const std::string& column,
                                                            const std::string& metric, int limit) {
  std::vector<MetricPoint> points;
  if (limit <= 0) return points;
  if (column.empty()) {
    const char* value = metric == "row_count" ? "r.rows" : metric == "bad_rows" ? "r.bad_rows"
                        : metric == "quality_score" ? "r.quality_score" : nullptr;
    if (value == nullptr) return conn_->Error("unknown run metric '" + metric + "'");
    ASSIGN_OR_RETURN(auto rows, conn_->Query(std::string("SELECT r.run_id, r.version, r.started_at, ") + value +
                                                 " FROM runs r WHERE r.dataset = $1 AND r.status = 'complete'"
                                                 " ORDER BY r.version DESC LIMIT $2",
                                             {Text(dataset), Int(limit)}));
    for (const SqlRow& row : rows) {
      if (!row[3]) continue;
      points.push_back({row[0].value_or(""), ParseInt(row[1]), row[2].value_or(""), ParseDouble(row[3])});
    }
    return points;
  }
  // Runs that profiled the column and have the value.
  const std::string has_value = metric == "mean"            ? " AND m.mean IS NOT NULL"
                                : metric == "stddev"        ? " AND m.stddev IS NOT NULL"
                                : metric == "min"           ? " AND m.min_value IS NOT NULL"
                                : metric == "max"           ? " AND m.max_value IS NOT NULL"
                                : metric == "null_fraction" ? " AND m.value_count + m.null_count > 0"
                                                            : "";
  ASSIGN_OR_RETURN(auto rows,
                   conn_->Query("SELECT r.run_id, r.version, r.started_at, m.value_count, m.null_count, m.mean,"
                                " m.stddev, m.distinct_count, m.min_value, m.max_value"
                                " FROM runs r JOIN column_metrics m ON m.run_id = r.run_id AND m.column_name = $2"
                                " WHERE r.dataset = $1 AND r.status = 'complete'" + has_value +
                                " ORDER BY r.version DESC LIMIT $3",
                                {Text(dataset), Text(column), Int(limit)}));
  for (const SqlRow& row : rows) {
    std::optional<double> value = ColumnMetricValue(row, metric);
    if (value) points.push_back({row[0].value_or(""), ParseInt(row[1]), row[2].value_or(""), *value});
  }
  return points;
}

Result<RunIdMatches> SqlRunStore::FindRunIds(const std::string& prefix, int limit) {
  // substr, not LIKE: a prefix's % and _ are literal, and case counts in both
  // backends (SQLite's LIKE ignores ASCII case).
  const std::vector<SqlParam> params = {Text(prefix), Int(static_cast<int64_t>(prefix.size()))};
  const char* where = " FROM runs WHERE substr(run_id, 1, $2) = $1";
  RunIdMatches matches;
  ASSIGN_OR_RETURN(auto count, conn_->Query(std::string("SELECT COUNT(*)") + where, params));
  matches.count = count.empty() ? 0 : ParseInt(count[0][0]);
  ASSIGN_OR_RETURN(auto rows, conn_->Query(std::string("SELECT run_id") + where + " ORDER BY run_id LIMIT $3",
                                           {params[0], params[1], Int(std::max(0, limit))}));
  for (const SqlRow& row : rows) matches.run_ids.push_back(row[0].value_or(""));
  return matches;
}

Result<std::vector<RuleVersionRecord>> SqlRunStore::RuleVersions(const std::string& dataset) {
  ASSIGN_OR_RETURN(auto rows,
                   conn_->Query("SELECT v.sha256, v.first_seen, v.rules_text,"
                                " (SELECT COUNT(*) FROM runs r"
                                "   WHERE r.dataset = v.dataset AND r.rules_sha256 = v.sha256),"
                                " v.number"
                                " FROM rule_versions v WHERE v.dataset = $1 ORDER BY v.number",
                                {Text(dataset)}));
  std::vector<RuleVersionRecord> versions;
  versions.reserve(rows.size());
  for (const SqlRow& row : rows) {
    RuleVersionRecord v;
    v.sha256 = row[0].value_or("");
    v.first_seen = row[1].value_or("");
    v.text = row[2].value_or("");
    v.runs = ParseInt(row[3]);
    v.number = ParseInt(row[4]);
    versions.push_back(std::move(v));
  }
  return versions;
}

Result<std::optional<WatermarkRecord>> SqlRunStore::Watermark(const std::string& dataset, const std::string& source,
                                                              const std::string& column) {
  ASSIGN_OR_RETURN(auto rows, conn_->Query("SELECT value, value_text FROM watermarks WHERE dataset = $1"
                                           " AND source = $2 AND column_name = $3",
                                           {Text(dataset), Text(source), Text(column)}));
  if (rows.empty()) return std::optional<WatermarkRecord>();
  return std::optional<WatermarkRecord>(
      WatermarkRecord{source, column, rows[0][0].value_or(""), rows[0][1].value_or("")});
}

Result<std::optional<std::string>> SqlRunStore::CachedSchema(const SchemaCacheKey& key) {
  ASSIGN_OR_RETURN(auto rows,
                   conn_->Query("SELECT schema_json FROM schema_cache WHERE path = $1"
                                " AND size_bytes = $2 AND mtime_ns = $3 AND rules_sha256 = $4"
                                " AND schema_version = $5",
                                {Text(key.path), Int(key.size), Int(key.mtime_ns),
                                 Text(key.rules_sha256), Text(key.version)}));
  if (rows.empty()) return std::optional<std::string>();
  return rows[0][0];
}

Result<std::optional<std::string>> SqlRunStore::PreviousSchema(const std::string& path,
                                                             const std::string& rules_sha256) {
  ASSIGN_OR_RETURN(auto rows, conn_->Query("SELECT schema_json FROM schema_cache WHERE path = $1"
                                           " AND rules_sha256 = $2 ORDER BY cached_at DESC LIMIT 1",
                                           {Text(path), Text(rules_sha256)}));
  if (rows.empty()) return std::optional<std::string>();
  return rows[0][0];
}

Status SqlRunStore::CacheSchema(const SchemaCacheKey& key, const std::string& schema_json) {
  // One entry per path: another rules sha256, or another size/mtime (the
  // file changed, so that entry can never match again), is dropped.
  return InWriteTransaction(*conn_, [&]() -> Status {
    RETURN_IF_ERROR(Exec(*conn_,
                         "DELETE FROM schema_cache WHERE path = $1 AND NOT (size_bytes = $2"
                         " AND mtime_ns = $3 AND rules_sha256 = $4)",
                         {Text(key.path), Int(key.size), Int(key.mtime_ns),
                          Text(key.rules_sha256)}));
    return Exec(*conn_,
                "INSERT INTO schema_cache (path, size_bytes, mtime_ns, rules_sha256, schema_json,"
                " cached_at, schema_version) VALUES ($1, $2, $3, $4, $5, $6, $7)"
                " ON CONFLICT (path, size_bytes, mtime_ns, rules_sha256) DO UPDATE"
                " SET schema_json = excluded.schema_json, cached_at = excluded.cached_at,"
                " schema_version = excluded.schema_version",
                {Text(key.path), Int(key.size), Int(key.mtime_ns), Text(key.rules_sha256),
                 Text(schema_json), Text(UtcNowIso8601()), Text(key.version)});
  });
}

}  // namespace griffin
