// Several processes (fork) on one store at once, on SQLite and PostgreSQL:
// concurrent first opens of an empty store all succeed, and concurrent
// writers get versions 1..N with no gap or repeat, every run complete with
// its own child rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <set>

#include "store/migrations.h"
#include "store/run_store.h"
#include "store/store_test_util.h"

namespace griffin::store_test {
namespace {

using RunStoreConcurrencyTest = StoreBackendTest;

constexpr int kChildren = 4;
constexpr int kRunsPerChild = 20;

std::string RunId(int child, int i) {
  return "c" + std::to_string(child) + "-r" + std::to_string(i);
}

int Fail(const std::string& where, const std::string& message) {
  std::fprintf(stderr, "child: %s: %s\n", where.c_str(), message.c_str());
  return 1;
}

TEST_P(RunStoreConcurrencyTest, ConcurrentFirstOpensOfAnEmptyStoreAllSucceed) {
  std::string uri = scratch_.uri();
  std::vector<int> codes = RunInChildren(8, [&](int) {
    auto store = OpenRunStore(uri);
    return store.ok() ? 0 : Fail("open", store.status().message());
  });
  EXPECT_EQ(codes, std::vector<int>(8, 0));
  auto applied = Rows("SELECT number FROM schema_migrations ORDER BY number");
  ASSERT_EQ(applied.size(), static_cast<size_t>(kLatestMigration));  // each migration applied once
  for (int number = 1; number <= kLatestMigration; ++number)
    EXPECT_EQ(applied[number - 1][0], std::to_string(number));
}

TEST_P(RunStoreConcurrencyTest, ConcurrentWritersGetGaplessVersionsAndCompleteRuns) {
  std::string uri = scratch_.uri();
  // Each child opens the (still empty) store itself, then records its runs.
  std::vector<int> codes = RunInChildren(kChildren, [&](int child) {
    auto store = OpenRunStore(uri);
    if (!store.ok()) return Fail("open", store.status().message());
    int64_t last = 0;
    for (int i = 0; i < kRunsPerChild; ++i) {
      std::string id = RunId(child, i);
      auto ticket = (*store)->BeginRun(MakeBegin("shared", id));
      if (!ticket.ok()) return Fail("begin " + id, ticket.status().message());
      if (ticket->version <= last) return Fail("begin " + id, "version went backwards");
      last = ticket->version;
      Status s = (*store)->FinishRun(id, MakeFinish(id, child * 100 + i));
      if (!s.ok()) return Fail("finish " + id, s.message());
    }
    return 0;
  });
  EXPECT_EQ(codes, std::vector<int>(kChildren, 0));

  constexpr int kTotal = kChildren * kRunsPerChild;
  auto store = OpenRunStore(uri);
  ASSERT_TRUE(store.ok()) << store.status().message();
  auto history = (*store)->History("shared", 0);
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), static_cast<size_t>(kTotal));
  std::set<std::string> ids;
  for (int i = 0; i < kTotal; ++i) {
    const RunSummary& run = (*history)[i];
    EXPECT_EQ(run.version, kTotal - i) << "versions must be exactly 1..N";
    EXPECT_EQ(run.status, "complete");
    ids.insert(run.run_id);
  }
  ASSERT_EQ(ids.size(), static_cast<size_t>(kTotal));

  // Every run has exactly its own child rows, with its own values.
  auto conn = scratch_.Connect();
  ASSERT_TRUE(conn.ok());
  for (int child = 0; child < kChildren; ++child) {
    for (int i = 0; i < kRunsPerChild; ++i) {
      std::string id = RunId(child, i);
      int64_t n = child * 100 + i;
      SCOPED_TRACE(id);
      auto run = (*conn)->Query("SELECT rows, bad_rows, report_json FROM runs WHERE run_id = $1",
                                {SqlParam(id)});
      ASSERT_TRUE(run.ok());
      ASSERT_EQ(run->size(), 1u);
      EXPECT_EQ(ParseInt((*run)[0][0]), 1000 + n);
      EXPECT_EQ(ParseInt((*run)[0][1]), n);
      EXPECT_EQ((*run)[0][2], MakeFinish(id, n).report_json);
      auto checks = (*conn)->Query(
          "SELECT name, evaluated FROM check_results WHERE run_id = $1 ORDER BY position",
          {SqlParam(id)});
      ASSERT_TRUE(checks.ok());
      ASSERT_EQ(checks->size(), 3u);
      for (int k = 0; k < 3; ++k) {
        EXPECT_EQ((*checks)[k][0], id + "/check" + std::to_string(k));
        EXPECT_EQ(ParseInt((*checks)[k][1]), 1000 + n);
      }
      auto columns = (*conn)->Query(
          "SELECT column_name FROM column_metrics WHERE run_id = $1 ORDER BY position",
          {SqlParam(id)});
      ASSERT_TRUE(columns.ok());
      ASSERT_EQ(columns->size(), 2u);
      EXPECT_EQ((*columns)[1][0], id + "/col1");
      auto lineage = (*conn)->Query(
          "SELECT (SELECT COUNT(*) FROM run_inputs WHERE run_id = $1),"
          " (SELECT COUNT(*) FROM run_outputs WHERE run_id = $1 AND sha256 = $2)",
          {SqlParam(id), SqlParam("sha-bad-" + id)});
      ASSERT_TRUE(lineage.ok()) << lineage.status().message();
      EXPECT_EQ(ParseInt((*lineage)[0][0]), 1);
      EXPECT_EQ(ParseInt((*lineage)[0][1]), 1);
    }
  }
  auto totals = (*conn)->Query("SELECT (SELECT COUNT(*) FROM check_results),"
                               " (SELECT COUNT(*) FROM column_metrics),"
                               " (SELECT COUNT(*) FROM run_outputs)");
  ASSERT_TRUE(totals.ok());
  EXPECT_EQ(ParseInt((*totals)[0][0]), 3 * kTotal);
  EXPECT_EQ(ParseInt((*totals)[0][1]), 2 * kTotal);
  EXPECT_EQ(ParseInt((*totals)[0][2]), 2 * kTotal);
  auto versions = (*store)->RuleVersions("shared");
  ASSERT_TRUE(versions.ok());
  ASSERT_EQ(versions->size(), 1u);
  EXPECT_EQ((*versions)[0].runs, kTotal);
}

INSTANTIATE_TEST_SUITE_P(Backends, RunStoreConcurrencyTest,
                         ::testing::Values(Backend::kSqlite, Backend::kPostgres), BackendName);

}  // namespace
}  // namespace griffin::store_test
