// Numbered migrations: a fresh store is at the latest; an old store (built
// at migration 1, as an older griffin left it) upgrades itself on open and
// keeps its rows; a newer store is refused. On SQLite and PostgreSQL.
#include "store/migrations.h"

#include <gtest/gtest.h>

#include "store/store_test_util.h"

namespace griffin::store_test {
namespace {

using MigrationTest = StoreBackendTest;

SqlParam P(const char* s) { return SqlParam(std::string(s)); }

TEST_P(MigrationTest, FreshStoreIsAtTheLatestMigration) {
  auto conn = scratch_.Connect();
  ASSERT_TRUE(conn.ok()) << conn.status().message();
  auto empty = CurrentMigration(**conn);
  ASSERT_TRUE(empty.ok()) << empty.status().message();
  EXPECT_EQ(*empty, 0);
  ASSERT_TRUE(Migrate(**conn).ok());
  EXPECT_EQ(*CurrentMigration(**conn), kLatestMigration);
  EXPECT_EQ(kLatestMigration, 10);
  ASSERT_TRUE(Migrate(**conn).ok());  // idempotent
  auto applied = Rows("SELECT number FROM schema_migrations ORDER BY number");
  ASSERT_EQ(applied.size(), 10u);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(applied[i][0], std::to_string(i + 1));
}

TEST_P(MigrationTest, OldStoreUpgradesItselfAndKeepsItsRows) {
  {
    auto old_store = scratch_.Open(/*migrate_to=*/1);
    ASSERT_TRUE(old_store.ok()) << old_store.status().message();
  }
  {
    auto conn = scratch_.Connect();
    ASSERT_TRUE(conn.ok());
    EXPECT_EQ(*CurrentMigration(**conn), 1);
    // Migration 2's column is not there yet.
    EXPECT_FALSE((*conn)->Query("SELECT abort_reason FROM runs").ok());
    // Rows as a migration-1 griffin wrote them.
    SqlConnection& c = **conn;
    ASSERT_TRUE(Exec(c, "INSERT INTO datasets (name, next_version) VALUES ($1, 3)",
                     {P("orders")}).ok());
    ASSERT_TRUE(Exec(c, "INSERT INTO rule_versions (dataset, sha256, rules_text, rules_path,"
                        " first_seen) VALUES ($1, $2, $3, $4, $5)",
                     {P("orders"), P("sha-old"), P("old rules"), P("r.yaml"),
                      P("2023-01-01T00:00:00Z")}).ok());
    // Two more, never used by a run: one seen earlier, one in the same second
    // (the one a run used comes first, whatever the sha256s).
    for (const auto& [sha, seen] : {std::pair{"sha-first", "2022-06-01T00:00:00Z"},
                                    std::pair{"sha-aaa", "2023-01-01T00:00:00Z"}}) {
      ASSERT_TRUE(Exec(c, "INSERT INTO rule_versions (dataset, sha256, rules_text, rules_path,"
                          " first_seen) VALUES ($1, $2, $3, $4, $5)",
                       {P("orders"), P(sha), P("rules"), P("r.yaml"), P(seen)}).ok());
    }
    for (int v = 1; v <= 2; ++v) {
      std::string id = "old-" + std::to_string(v);
      ASSERT_TRUE(Exec(c, "INSERT INTO runs (run_id, dataset, version, started_at, ended_at,"
                          " status, rows, bad_rows, malformed_rows, quality_score, passed,"
                          " griffin_version, rules_sha256, rules_path, report_json)"
                          " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,"
                          " $15)",
                       {SqlParam(id), P("orders"), SqlParam(int64_t{v}),
                        P("2023-01-01T00:00:00Z"), P("2023-01-01T00:00:01Z"),
                        P(v == 1 ? "complete" : "running"), SqlParam(int64_t{10 * v}),
                        SqlParam(int64_t{v}), SqlParam(int64_t{0}), SqlParam(0.75),
                        SqlParam(true), P("0.0.9"), P("sha-old"), P("r.yaml"),
                        SqlParam(std::string("{\"old\": ") + std::to_string(v) + "}")})
                      .ok());
    }
    ASSERT_TRUE(Exec(c, "INSERT INTO check_results (run_id, position, name, column_name,"
                        " check_name, severity, evaluated, violations, pass_rate, observed,"
                        " passed) VALUES ($1, 0, $2, $3, $4, $5, 10, 1, 0.9, NULL, $6)",
                     {P("old-1"), P("amount not null"), P("amount"), P("not_null"),
                      P("error"), SqlParam(false)}).ok());
  }

  auto store = OpenRunStore(scratch_.uri());  // the normal open: upgrades
  ASSERT_TRUE(store.ok()) << store.status().message();
  {
    auto conn = scratch_.Connect();
    ASSERT_TRUE(conn.ok());
    EXPECT_EQ(*CurrentMigration(**conn), 10);
  }
  auto history = (*store)->History("orders", 10);
  ASSERT_TRUE(history.ok()) << history.status().message();
  ASSERT_EQ(history->size(), 2u);
  EXPECT_EQ((*history)[1].run_id, "old-1");
  EXPECT_EQ((*history)[1].status, "complete");
  EXPECT_EQ((*history)[1].rows, 10);
  EXPECT_EQ((*history)[1].quality_score, 0.75);
  EXPECT_TRUE((*history)[1].passed);
  EXPECT_EQ(*(*store)->ReportJson("old-2"), std::optional<std::string>("{\"old\": 2}"));
  EXPECT_EQ(Rows("SELECT name FROM check_results WHERE run_id = 'old-1'")[0][0],
            "amount not null");
  auto versions = (*store)->RuleVersions("orders");
  ASSERT_TRUE(versions.ok());
  // Migration 6 numbered the rule versions as `griffin rules` listed them.
  ASSERT_EQ(versions->size(), 3u);
  EXPECT_EQ((*versions)[0].sha256, "sha-first");
  EXPECT_EQ((*versions)[1].sha256, "sha-old");
  EXPECT_EQ((*versions)[2].sha256, "sha-aaa");
  for (int64_t i = 0; i < 3; ++i) EXPECT_EQ((*versions)[static_cast<size_t>(i)].number, i + 1);
  EXPECT_EQ((*versions)[1].runs, 2);
  EXPECT_EQ((*history)[1].rules_version, 2);
  EXPECT_EQ((*history)[1].rules_sha256, "sha-old");
  auto next = (*store)->RecordRuleVersion("orders", "sha-next", "t", "r.yaml", "2024-01-01T00:00:00Z");
  ASSERT_TRUE(next.ok()) << next.status().message();
  EXPECT_EQ(*next, 4);
  // Migration 2's column works; the version sequence continues.
  ASSERT_TRUE((*store)->AbortRun("old-2", "killed").ok());
  EXPECT_EQ(Rows("SELECT abort_reason FROM runs WHERE run_id = 'old-2'")[0][0], "killed");
  auto ticket = (*store)->BeginRun(MakeBegin("orders", "new-1", "sha-old"));
  ASSERT_TRUE(ticket.ok()) << ticket.status().message();
  EXPECT_EQ(ticket->version, 3);
  // Migration 4's columns: old runs have none, new runs may.
  auto old_runs = (*store)->History("orders", 10);
  ASSERT_TRUE(old_runs.ok());
  EXPECT_EQ((*old_runs)[2].key_id, "");
  EXPECT_EQ((*old_runs)[2].origin, "");
  // Migration 5 (the runs table rebuilt on SQLite): record_failed is a
  // status; other statuses are still refused; the child rows still point at
  // their runs, and foreign keys are enforced again.
  ASSERT_TRUE((*store)->MarkRecordFailed("new-1", "report too big").ok());
  EXPECT_EQ(Rows("SELECT status, abort_reason FROM runs WHERE run_id = 'new-1'")[0][0], "record_failed");
  {
    auto conn = scratch_.Connect();
    ASSERT_TRUE(conn.ok());
    EXPECT_FALSE(Exec(**conn, "UPDATE runs SET status = 'lost' WHERE run_id = 'new-1'").ok());
    EXPECT_FALSE(Exec(**conn, "INSERT INTO check_results (run_id, position, name, column_name, check_name,"
                              " severity, evaluated, violations, pass_rate, observed, passed)"
                              " VALUES ('no-such-run', 0, 'n', 'c', 'k', 'error', 1, 0, 1.0, NULL, $1)",
                      {SqlParam(true)}).ok());
  }
  EXPECT_EQ(Rows("SELECT r.status FROM check_results c JOIN runs r ON r.run_id = c.run_id")[0][0], "complete");
}

TEST_P(MigrationTest, StoreFromANewerGriffinIsRefused) {
  ASSERT_TRUE(scratch_.Open().ok());
  {
    auto conn = scratch_.Connect();
    ASSERT_TRUE(conn.ok());
    ASSERT_TRUE(Exec(**conn, "INSERT INTO schema_migrations (number, applied_at) VALUES (99, 'x')")
                    .ok());
  }
  auto store = scratch_.Open();
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kStoreError);
  EXPECT_NE(store.status().message().find(
                ": schema migration 99 is newer than this griffin knows (" + std::to_string(kLatestMigration) + "); upgrade griffin"),
            std::string::npos)
      << store.status().message();
}

INSTANTIATE_TEST_SUITE_P(Backends, MigrationTest,
                         ::testing::Values(Backend::kSqlite, Backend::kPostgres), BackendName);

}  // namespace
}  // namespace griffin::store_test
