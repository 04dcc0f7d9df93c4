#include "store/migrations.h"

#include <string>
#include <vector>

namespace griffin {
namespace {

struct Migration {
  int number;
  std::vector<const char*> statements;  // both dialects
  // Dialect-specific steps, run after `statements` (a change the two express
  // differently, such as a CHECK constraint: PostgreSQL alters it, SQLite
  // rebuilds the table).
  std::vector<const char*> sqlite_statements = {};
  std::vector<const char*> postgres_statements = {};
};

// The schema, as the list of changes that built it. Append only.
const std::vector<Migration>& AllMigrations() {
  static const std::vector<Migration> migrations = {
      {1,
       {
           // One row per dataset: the version the next run gets.
           "CREATE TABLE datasets ("
           " name TEXT PRIMARY KEY,"
           " next_version BIGINT NOT NULL)",
           "CREATE TABLE runs ("
           " run_id TEXT PRIMARY KEY,"
           " dataset TEXT NOT NULL REFERENCES datasets (name),"
           " version BIGINT NOT NULL,"
           " started_at TEXT NOT NULL,"
           " ended_at TEXT,"
           " status TEXT NOT NULL CHECK (status IN ('running', 'complete', 'aborted')),"
           " rows BIGINT,"
           " bad_rows BIGINT,"
           " malformed_rows BIGINT,"
           " quality_score DOUBLE PRECISION,"
           " passed BOOLEAN,"
           " griffin_version TEXT NOT NULL,"
           " rules_sha256 TEXT NOT NULL,"
           " rules_path TEXT NOT NULL,"
           " report_json TEXT,"
           " UNIQUE (dataset, version))",
           "CREATE TABLE check_results ("
           " run_id TEXT NOT NULL REFERENCES runs (run_id),"
           " position BIGINT NOT NULL,"
           " name TEXT NOT NULL,"
           " column_name TEXT NOT NULL,"
           " check_name TEXT NOT NULL,"
           " severity TEXT NOT NULL,"
           " evaluated BIGINT NOT NULL,"
           " violations BIGINT NOT NULL,"
           " pass_rate DOUBLE PRECISION NOT NULL,"
           " observed TEXT,"
           " passed BOOLEAN NOT NULL,"
           " PRIMARY KEY (run_id, position))",
           "CREATE TABLE column_metrics ("
           " run_id TEXT NOT NULL REFERENCES runs (run_id),"
           " position BIGINT NOT NULL,"
           " column_name TEXT NOT NULL,"
           " value_count BIGINT NOT NULL,"
           " null_count BIGINT NOT NULL,"
           " min_value TEXT,"
           " max_value TEXT,"
           " mean DOUBLE PRECISION,"
           " stddev DOUBLE PRECISION,"
           " distinct_count BIGINT NOT NULL,"
           " distinct_exact BOOLEAN NOT NULL,"
           " PRIMARY KEY (run_id, position))",
           // The full rule file under its sha256, once per dataset.
           "CREATE TABLE rule_versions ("
           " dataset TEXT NOT NULL,"
           " sha256 TEXT NOT NULL,"
           " rules_text TEXT NOT NULL,"
           " rules_path TEXT NOT NULL,"
           " first_seen TEXT NOT NULL,"
           " PRIMARY KEY (dataset, sha256))",
           "CREATE TABLE run_inputs ("
           " run_id TEXT NOT NULL REFERENCES runs (run_id),"
           " position BIGINT NOT NULL,"
           " path TEXT NOT NULL,"
           " size_bytes BIGINT NOT NULL,"
           " mtime_ns BIGINT NOT NULL,"
           " etag TEXT NOT NULL,"
           " rows BIGINT NOT NULL,"
           " PRIMARY KEY (run_id, position))",
           "CREATE TABLE run_outputs ("
           " run_id TEXT NOT NULL REFERENCES runs (run_id),"
           " position BIGINT NOT NULL,"
           " path TEXT NOT NULL,"
           " kind TEXT NOT NULL,"
           " rows BIGINT NOT NULL,"
           " size_bytes BIGINT NOT NULL,"
           " sha256 TEXT NOT NULL,"
           " PRIMARY KEY (run_id, position))",
           "CREATE TABLE schema_cache ("
           " path TEXT NOT NULL,"
           " size_bytes BIGINT NOT NULL,"
           " mtime_ns BIGINT NOT NULL,"
           " rules_sha256 TEXT NOT NULL,"
           " schema_json TEXT NOT NULL,"
           " cached_at TEXT NOT NULL,"
           " PRIMARY KEY (path, size_bytes, mtime_ns, rules_sha256))",
       }},
      {2,
       {
           // Why a run was aborted (killed, failed, or stale after 24 hours).
           "ALTER TABLE runs ADD COLUMN abort_reason TEXT",
           // History and the stale-run sweep look runs up by dataset and start.
           "CREATE INDEX runs_by_dataset_started ON runs (dataset, started_at)",
       }},
      {3,
       {
           // Which process runs it: a later run on the same host marks runs
           // whose process has died (SIGKILL, crash) as aborted.
           "ALTER TABLE runs ADD COLUMN host TEXT",
           "ALTER TABLE runs ADD COLUMN pid BIGINT",
       }},
      {4,
       {
           // Who asked for the run, and through what: the API key id of a
           // `griffin serve` caller, and cli | http | flight | metrics.
           "ALTER TABLE runs ADD COLUMN key_id TEXT",
           "ALTER TABLE runs ADD COLUMN origin TEXT",
       }},
      {5,
       {},
       // A fourth status, record_failed: the run was validated but its record
       // (FinishRun) could not be written, for example a report past the
       // database's size limit; abort_reason says why. Before, such a run
       // stayed "running". SQLite cannot alter a CHECK constraint, so the
       // table is rebuilt (Migrate turns foreign keys off around it, as
       // SQLite's documented procedure asks, and checks them before commit).
       {
           "CREATE TABLE runs_new ("
           " run_id TEXT PRIMARY KEY,"
           " dataset TEXT NOT NULL REFERENCES datasets (name),"
           " version BIGINT NOT NULL,"
           " started_at TEXT NOT NULL,"
           " ended_at TEXT,"
           " status TEXT NOT NULL CHECK (status IN ('running', 'complete', 'aborted', 'record_failed')),"
           " rows BIGINT,"
           " bad_rows BIGINT,"
           " malformed_rows BIGINT,"
           " quality_score DOUBLE PRECISION,"
           " passed BOOLEAN,"
           " griffin_version TEXT NOT NULL,"
           " rules_sha256 TEXT NOT NULL,"
           " rules_path TEXT NOT NULL,"
           " report_json TEXT,"
           " abort_reason TEXT,"
           " host TEXT,"
           " pid BIGINT,"
           " key_id TEXT,"
           " origin TEXT,"
           " UNIQUE (dataset, version))",
           "INSERT INTO runs_new (run_id, dataset, version, started_at, ended_at, status, rows, bad_rows,"
           " malformed_rows, quality_score, passed, griffin_version, rules_sha256, rules_path, report_json,"
           " abort_reason, host, pid, key_id, origin)"
           " SELECT run_id, dataset, version, started_at, ended_at, status, rows, bad_rows,"
           " malformed_rows, quality_score, passed, griffin_version, rules_sha256, rules_path, report_json,"
           " abort_reason, host, pid, key_id, origin FROM runs",
           "DROP TABLE runs",
           "ALTER TABLE runs_new RENAME TO runs",
           "CREATE INDEX runs_by_dataset_started ON runs (dataset, started_at)",
       },
       {
           // PostgreSQL names an unnamed column CHECK <table>_<column>_check.
           "ALTER TABLE runs DROP CONSTRAINT runs_status_check",
           "ALTER TABLE runs ADD CONSTRAINT runs_status_check"
           " CHECK (status IN ('running', 'complete', 'aborted', 'record_failed'))",
       }},
      {6,
       {
           // Each rule version's number in its dataset (1 = the first rule
           // file seen), kept so that `griffin rules`, `griffin history` and
           // the service's GET /v1/datasets give the same number. Known
           // versions are numbered as `griffin rules` listed them: by
           // first_seen, then the first run that used them, then sha256.
           "ALTER TABLE rule_versions ADD COLUMN number BIGINT",
           "UPDATE rule_versions SET number = (SELECT ranked.n FROM (SELECT v.dataset, v.sha256,"
           " ROW_NUMBER() OVER (PARTITION BY v.dataset ORDER BY v.first_seen,"
           " COALESCE((SELECT MIN(r.version) FROM runs r"
           "  WHERE r.dataset = v.dataset AND r.rules_sha256 = v.sha256), 9223372036854775807),"
           " v.sha256) AS n FROM rule_versions v) ranked"
           " WHERE ranked.dataset = rule_versions.dataset AND ranked.sha256 = rule_versions.sha256)",
           "CREATE UNIQUE INDEX rule_versions_by_number ON rule_versions (dataset, number)",
       }},
      {7,
       {
           // An output written to an object store: its ETag (S3) or generation
           // (GCS), beside its URI, size and sha256; '' for local files.
           "ALTER TABLE run_outputs ADD COLUMN etag TEXT NOT NULL DEFAULT ''",
       }},
      {8,
       {
           // The profile of a run's drift-checked columns (profile/table_profile.h,
           // serialized, base64): the baseline of drift checks (last_passed,
           // run:ID).
           "CREATE TABLE run_profiles ("
           " run_id TEXT PRIMARY KEY REFERENCES runs (run_id),"
           " state TEXT NOT NULL)",
       }},
      {9,
       {
           // Every alert sent, failed or suppressed (alerts/alert_dispatcher.h):
           // URLs redacted; dedup_key finds a duplicate's earlier delivery.
           "CREATE TABLE alert_deliveries ("
           " delivery_id TEXT PRIMARY KEY,"
           " run_id TEXT NOT NULL,"
           " dataset TEXT NOT NULL,"
           " url TEXT NOT NULL,"
           " format TEXT NOT NULL,"
           " events TEXT NOT NULL,"
           " dedup_key TEXT NOT NULL,"
           " status TEXT NOT NULL CHECK (status IN ('delivered', 'failed', 'suppressed')),"
           " attempts BIGINT NOT NULL,"
           " http_status BIGINT NOT NULL,"
           " error TEXT NOT NULL,"
           " created_at TEXT NOT NULL,"
           " finished_at TEXT NOT NULL)",
           "CREATE INDEX alert_deliveries_by_key ON alert_deliveries (dedup_key, finished_at)",
           "CREATE INDEX alert_deliveries_by_run ON alert_deliveries (run_id)",
       }},
      {10,
       {
           // Incremental runs (source.incremental): how far the rows of a
           // dataset's source reach, as the last recorded run read them. The
           // value is the source's serialized watermark (for SQL sources the
           // base64 of one Arrow value), value_text how people read it; set in
           // the transaction that records the run, so it advances only then.
           "CREATE TABLE watermarks ("
           " dataset TEXT NOT NULL,"
           " source TEXT NOT NULL,"
           " column_name TEXT NOT NULL,"
           " value TEXT NOT NULL,"
           " value_text TEXT NOT NULL,"
           " run_id TEXT NOT NULL REFERENCES runs (run_id),"
           " PRIMARY KEY (dataset, source, column_name))",
           // A database table's schema snapshot is keyed by its schema version
           // (a hash of its catalogue rows); '' for files, which are keyed by
           // size and mtime.
           "ALTER TABLE schema_cache ADD COLUMN schema_version TEXT NOT NULL DEFAULT ''",
       }},
  };
  return migrations;
}

// Serializes migrating PostgreSQL stores (per database): "GRIFFIN" in ASCII.
constexpr int64_t kPostgresMigrationLockKey = 0x475249464649ELL;

Status CheckNotNewer(SqlConnection& conn, int current) {
  if (current > kLatestMigration) {
    return conn.Error("schema migration " + std::to_string(current) +
                      " is newer than this griffin knows (" + std::to_string(kLatestMigration) +
                      "); upgrade griffin");
  }
  return Status::OK();
}

Result<int> MaxApplied(SqlConnection& conn) {
  ASSIGN_OR_RETURN(auto rows, conn.Query("SELECT MAX(number) FROM schema_migrations"));
  return static_cast<int>(rows.empty() ? 0 : ParseInt(rows[0][0], 0));
}

}  // namespace

Result<int> CurrentMigration(SqlConnection& conn) {
  const char* exists_sql =
      conn.dialect() == SqlDialect::kSqlite
          ? "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
          : "SELECT COUNT(*) FROM pg_catalog.pg_class"
            " WHERE oid = to_regclass('schema_migrations')";
  ASSIGN_OR_RETURN(auto rows, conn.Query(exists_sql));
  if (rows.empty() || ParseInt(rows[0][0], 0) == 0) return 0;
  return MaxApplied(conn);
}

Status Migrate(SqlConnection& conn, int up_to) {
  // Fast path: an up-to-date store is only read, so read-only commands
  // (history, show) never wait for the write lock.
  ASSIGN_OR_RETURN(int current, CurrentMigration(conn));
  RETURN_IF_ERROR(CheckNotNewer(conn, current));
  if (current >= up_to) return Status::OK();

  // SQLite rebuilds tables that others reference (migration 5): foreign keys
  // go off for the transaction (a no-op inside one, so before BEGIN), are
  // checked before COMMIT, and come back on whatever happens.
  const bool sqlite = conn.dialect() == SqlDialect::kSqlite;
  if (sqlite) RETURN_IF_ERROR(Exec(conn, "PRAGMA foreign_keys = OFF"));
  Status migrated = InWriteTransaction(conn, [&]() -> Status {
    if (conn.dialect() == SqlDialect::kPostgres) {
      RETURN_IF_ERROR(Exec(conn, "SELECT pg_advisory_xact_lock($1)",
                           {SqlParam(kPostgresMigrationLockKey)}));
    }
    RETURN_IF_ERROR(Exec(conn,
                         "CREATE TABLE IF NOT EXISTS schema_migrations ("
                         " number BIGINT PRIMARY KEY,"
                         " applied_at TEXT NOT NULL)"));
    // Read again under the lock: another process may have migrated meanwhile.
    ASSIGN_OR_RETURN(int applied, MaxApplied(conn));
    RETURN_IF_ERROR(CheckNotNewer(conn, applied));
    for (const Migration& migration : AllMigrations()) {
      if (migration.number <= applied || migration.number > up_to) continue;
      const bool sqlite = conn.dialect() == SqlDialect::kSqlite;
      for (const auto* list : {&migration.statements,
                               sqlite ? &migration.sqlite_statements : &migration.postgres_statements}) {
        for (const char* statement : *list) RETURN_IF_ERROR(Exec(conn, statement));
      }
      RETURN_IF_ERROR(Exec(conn, "INSERT INTO schema_migrations (number, applied_at) VALUES ($1, $2)",
                           {SqlParam(int64_t{migration.number}), SqlParam(UtcNowIso8601())}));
    }
    if (sqlite) {
      ASSIGN_OR_RETURN(auto dangling, conn.Query("PRAGMA foreign_key_check"));
      if (!dangling.empty()) return conn.Error("migration left rows whose foreign key has no parent");
    }
    return Status::OK();
  });
  if (sqlite) {
    Status restored = Exec(conn, "PRAGMA foreign_keys = ON");
    if (migrated.ok()) return restored;
  }
  return migrated;
}

}  // namespace griffin
