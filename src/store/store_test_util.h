// Helpers for the run-store tests (included by src/store/*_test.cc only).
//
// A ScratchStore is an empty store location for one test: a SQLite file in a
// fresh temp folder, or a fresh schema in the PostgreSQL test database named
// by GRIFFIN_TEST_PG_URI (the URI then selects it with
// options=-csearch_path=...). PostgreSQL tests FAIL when that variable is
// unset, unless GRIFFIN_NO_PG=1 says to skip them:
//   export GRIFFIN_TEST_PG_URI=$(scripts/pg_test_cluster.sh start)
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "store/postgres_store.h"
#include "store/run_store.h"
#include "store/sqlite_store.h"

namespace griffin::store_test {

enum class Backend { kSqlite, kPostgres };

inline std::string BackendName(const ::testing::TestParamInfo<Backend>& info) {
  return info.param == Backend::kSqlite ? "Sqlite" : "Postgres";
}

// A fresh folder under $TMPDIR (or /tmp), removed by the destructor.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/griffin_store_test.XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (mkdtemp(buf.data()) != nullptr) path_ = buf.data();
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The PostgreSQL test URI; empty (after recording a failure, or a skip with
// GRIFFIN_NO_PG=1 via *skip) when there is none.
inline std::string PostgresTestUri(bool* skip) {
  *skip = false;
  const char* uri = std::getenv("GRIFFIN_TEST_PG_URI");
  if (uri != nullptr && *uri != '\0') return uri;
  const char* no_pg = std::getenv("GRIFFIN_NO_PG");
  if (no_pg != nullptr && std::string(no_pg) == "1") {
    *skip = true;
  } else {
    ADD_FAILURE() << "GRIFFIN_TEST_PG_URI is not set, so the PostgreSQL store tests cannot run. "
                     "Start a throwaway server with "
                     "`export GRIFFIN_TEST_PG_URI=$(scripts/pg_test_cluster.sh start)`, "
                     "or set GRIFFIN_NO_PG=1 to skip them explicitly.";
  }
  return "";
}

class ScratchStore {
 public:
  // Returns false when the backend is unavailable (a failure or skip is recorded).
  bool Init(Backend backend, bool* skip) {
    backend_ = backend;
    *skip = false;
    if (backend == Backend::kSqlite) {
      uri_ = dir_.path() + "/store.db";
      return !dir_.path().empty();
    }
    base_uri_ = PostgresTestUri(skip);
    if (base_uri_.empty()) return false;
    static int counter = 0;
    schema_ = "griffin_t_" + std::to_string(getpid()) + "_" + std::to_string(++counter);
    auto admin = ConnectPostgres(base_uri_);
    if (!admin.ok()) {
      ADD_FAILURE() << admin.status().message();
      return false;
    }
    // Identifiers cannot be parameters; this one is built from numbers only.
    Status s = Exec(**admin, "DROP SCHEMA IF EXISTS " + schema_ + " CASCADE");
    if (s.ok()) s = Exec(**admin, "CREATE SCHEMA " + schema_);
    if (!s.ok()) {
      ADD_FAILURE() << s.message();
      return false;
    }
    uri_ = base_uri_ + (base_uri_.find('?') == std::string::npos ? "?" : "&") +
           "options=-csearch_path%3D" + schema_;
    return true;
  }

  ~ScratchStore() {
    if (schema_.empty()) return;
    auto admin = ConnectPostgres(base_uri_);
    if (admin.ok()) (void)Exec(**admin, "DROP SCHEMA IF EXISTS " + schema_ + " CASCADE");
  }

  // What OpenRunStore takes.
  const std::string& uri() const { return uri_; }
  Backend backend() const { return backend_; }

  // A raw connection to the same store, for checks the RunStore API has no
  // reader for.
  Result<std::unique_ptr<SqlConnection>> Connect() const {
    return backend_ == Backend::kSqlite ? ConnectSqlite(uri_) : ConnectPostgres(uri_);
  }

  Result<std::unique_ptr<RunStore>> Open(int migrate_to = kLatestMigration) const {
    return backend_ == Backend::kSqlite ? OpenSqliteStore(uri_, migrate_to)
                                        : OpenPostgresStore(uri_, migrate_to);
  }

 private:
  Backend backend_ = Backend::kSqlite;
  TempDir dir_;
  std::string uri_, base_uri_, schema_;
};

inline BeginRunRequest MakeBegin(const std::string& dataset, const std::string& run_id,
                                 const std::string& sha = "sha-a",
                                 const std::string& started_at = UtcNowIso8601()) {
  BeginRunRequest r;
  r.dataset = dataset;
  r.run_id = run_id;
  r.started_at = started_at;
  r.griffin_version = "0.1.0";
  r.rules_sha256 = sha;
  r.rules_text = "dataset: " + dataset + "\n# rules " + sha + "\n";
  r.rules_path = "rules/" + dataset + ".yaml";
  return r;
}

// A FinishRunRequest whose every value derives from `run_id` and `n`, so that
// a reader can tell which run each child row belongs to.
inline FinishRunRequest MakeFinish(const std::string& run_id, int64_t n) {
  FinishRunRequest f;
  f.ended_at = UtcNowIso8601();
  f.rows = 1000 + n;
  f.bad_rows = n;
  f.malformed_rows = n % 3;
  f.quality_score = 0.5 + static_cast<double>(n) / 1024.0;
  f.passed = n % 2 == 0;
  f.report_json = "{\"run_id\": \"" + run_id + "\", \"n\": " + std::to_string(n) + "}";
  for (int k = 0; k < 3; ++k) {
    CheckResultRecord c;
    c.position = k;
    c.name = run_id + "/check" + std::to_string(k);
    c.column = k == 2 ? "" : "amount";
    c.check = k == 2 ? "row_count" : "not_null";
    c.severity = "error";
    c.evaluated = 1000 + n;
    c.violations = k;
    c.pass_rate = 1.0 - 0.1 * k;
    if (k == 2) c.observed = std::to_string(1000 + n);
    c.passed = k == 0;
    f.checks.push_back(c);
  }
  for (int k = 0; k < 2; ++k) {
    ColumnMetricsRecord m;
    m.column = run_id + "/col" + std::to_string(k);
    m.count = 1000 + n;
    m.nulls = k;
    if (k == 0) {
      m.min = "-1.5";
      m.max = std::to_string(n);
      m.mean = 0.1;
      m.stddev = 2.25;
    }
    m.distinct = 7 + k;
    m.distinct_exact = k == 0;
    f.columns.push_back(m);
  }
  f.inputs.push_back({run_id + ".csv", 12345 + n, 1700000000000000000LL + n, "", 1000 + n});
  f.outputs.push_back({run_id + ".clean.parquet", "clean", 1000 + n - n, 555, "sha-clean-" + run_id});
  f.outputs.push_back({"s3://b/" + run_id + ".bad.csv", "quarantine", n, 66, "sha-bad-" + run_id,
                       "etag-" + run_id});
  return f;
}

// Forks `n` children that start together (after the parent releases them)
// and run `body(i)`; returns their exit codes (-1: killed). A child that runs
// past 120 s is killed by its alarm.
inline std::vector<int> RunInChildren(int n, const std::function<int(int)>& body) {
  int barrier[2];
  if (pipe(barrier) != 0) return {};
  std::fflush(nullptr);
  std::vector<pid_t> pids;
  for (int i = 0; i < n; ++i) {
    pid_t pid = fork();
    if (pid < 0) break;
    if (pid == 0) {
      close(barrier[1]);
      char c;
      (void)!read(barrier[0], &c, 1);  // EOF when the parent closes its end
      alarm(120);
      int rc = body(i);
      std::fflush(nullptr);
      _exit(rc);
    }
    pids.push_back(pid);
  }
  close(barrier[0]);
  close(barrier[1]);
  std::vector<int> codes;
  for (pid_t pid : pids) {
    int status = 0;
    waitpid(pid, &status, 0);
    codes.push_back(WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  }
  codes.resize(n, -1);  // children that could not be forked
  return codes;
}

// A test fixture over both backends with an empty ScratchStore in scratch_.
class StoreBackendTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    bool skip = false;
    if (!scratch_.Init(GetParam(), &skip)) {
      if (skip) GTEST_SKIP() << "GRIFFIN_NO_PG=1: PostgreSQL store tests skipped";
      FAIL() << "no scratch store";
    }
  }

  std::unique_ptr<RunStore> OpenOrDie() {
    auto store = scratch_.Open();
    EXPECT_TRUE(store.ok()) << store.status().message();
    return store.ok() ? std::move(*store) : nullptr;
  }

  // Rows of `sql` on a raw connection to the store (a failure recorded on error).
  std::vector<SqlRow> Rows(const std::string& sql, const std::vector<SqlParam>& params = {}) {
    auto conn = scratch_.Connect();
    if (!conn.ok()) {
      ADD_FAILURE() << conn.status().message();
      return {};
    }
    auto rows = (*conn)->Query(sql, params);
    if (!rows.ok()) {
      ADD_FAILURE() << rows.status().message();
      return {};
    }
    return *rows;
  }

  ScratchStore scratch_;
};

}  // namespace griffin::store_test
