// What `griffin serve` needs of the run store, on SQLite and PostgreSQL: runs
// carry the caller's key id and origin, rule versions are recorded without a
// run (a reload), and a dataset's schema cache can be dropped.
#include "store/run_store.h"

#include <gtest/gtest.h>

#include "store/store_test_util.h"

namespace griffin::store_test {
namespace {

using RunStoreServiceTest = StoreBackendTest;

// A recorded rule version's number; -1 (and a failure) on an error.
int64_t NumberOf(const Result<int64_t>& number) {
  EXPECT_TRUE(number.ok()) << number.status().message();
  return number.ok() ? *number : -1;
}

TEST_P(RunStoreServiceTest, RunsCarryTheCallersKeyIdAndOrigin) {
  auto store = OpenOrDie();
  ASSERT_NE(store, nullptr);
  BeginRunRequest begin = MakeBegin("orders", "r1");
  begin.key_id = "trainer-7";
  begin.origin = "http";
  ASSERT_TRUE(store->BeginRun(begin).ok());
  ASSERT_TRUE(store->FinishRun("r1", MakeFinish("r1", 2)).ok());
  ASSERT_TRUE(store->BeginRun(MakeBegin("orders", "r2")).ok());  // the CLI sets neither
  auto history = store->History("orders", 10);
  ASSERT_TRUE(history.ok()) << history.status().message();
  ASSERT_EQ(history->size(), 2u);
  EXPECT_EQ((*history)[1].key_id, "trainer-7");
  EXPECT_EQ((*history)[1].origin, "http");
  EXPECT_EQ((*history)[0].key_id, "");
  auto raw = Rows("SELECT key_id, origin FROM runs WHERE run_id = 'r2'");
  ASSERT_EQ(raw.size(), 1u);
  EXPECT_FALSE(raw[0][0].has_value());  // NULL, not ''
  EXPECT_FALSE(raw[0][1].has_value());
}

TEST_P(RunStoreServiceTest, RuleVersionsAreRecordedWithoutARun) {
  auto store = OpenOrDie();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->RecordRuleVersion("orders", "sha-a", "rules a", "rules/o.yaml", "2024-01-01T00:00:00Z").ok());
  ASSERT_TRUE(store->RecordRuleVersion("orders", "sha-b", "rules b", "rules/o.yaml", "2024-01-02T00:00:00Z").ok());
  // Known already: first_seen and text stay.
  ASSERT_TRUE(store->RecordRuleVersion("orders", "sha-a", "other", "x.yaml", "2025-01-01T00:00:00Z").ok());
  ASSERT_TRUE(store->BeginRun(MakeBegin("orders", "r1", "sha-b")).ok());
  auto versions = store->RuleVersions("orders");
  ASSERT_TRUE(versions.ok()) << versions.status().message();
  ASSERT_EQ(versions->size(), 2u);
  EXPECT_EQ((*versions)[0].sha256, "sha-a");
  EXPECT_EQ((*versions)[0].first_seen, "2024-01-01T00:00:00Z");
  EXPECT_EQ((*versions)[0].text, "rules a");
  EXPECT_EQ((*versions)[0].runs, 0);
  EXPECT_EQ((*versions)[1].sha256, "sha-b");
  EXPECT_EQ((*versions)[1].runs, 1);
  EXPECT_FALSE(store->RecordRuleVersion("", "sha", "t", "p", "2024-01-01T00:00:00Z").ok());
}

TEST_P(RunStoreServiceTest, RuleVersionNumbersAreSharedByTheServiceAndRuns) {
  auto store = OpenOrDie();
  ASSERT_NE(store, nullptr);
  // A server loads a file (number 1); a run brings another (2); the server
  // reloads the first (still 1) and then a third (3). Each dataset counts alone.
  EXPECT_EQ(NumberOf(store->RecordRuleVersion("orders", "sha-a", "a", "o.yaml", "2024-01-03T00:00:00Z")), 1);
  ASSERT_TRUE(store->BeginRun(MakeBegin("orders", "r1", "sha-b")).ok());
  EXPECT_EQ(NumberOf(store->RecordRuleVersion("orders", "sha-a", "a", "o.yaml", "2024-01-05T00:00:00Z")), 1);
  EXPECT_EQ(NumberOf(store->RecordRuleVersion("orders", "sha-c", "c", "o.yaml", "2024-01-01T00:00:00Z")), 3);
  EXPECT_EQ(NumberOf(store->RecordRuleVersion("users", "sha-c", "c", "u.yaml", "2024-01-01T00:00:00Z")), 1);
  auto versions = store->RuleVersions("orders");
  ASSERT_TRUE(versions.ok()) << versions.status().message();
  ASSERT_EQ(versions->size(), 3u);
  EXPECT_EQ((*versions)[0].sha256, "sha-a");
  EXPECT_EQ((*versions)[1].sha256, "sha-b");
  EXPECT_EQ((*versions)[2].sha256, "sha-c");  // by number, not by first_seen
  for (int64_t i = 0; i < 3; ++i) EXPECT_EQ((*versions)[static_cast<size_t>(i)].number, i + 1);
  // A run's history row names its rule version; the dataset row the server
  // made does not shift run numbers.
  ASSERT_TRUE(store->BeginRun(MakeBegin("orders", "r2", "sha-c")).ok());
  auto history = store->History("orders", 10);
  ASSERT_TRUE(history.ok()) << history.status().message();
  ASSERT_EQ(history->size(), 2u);
  EXPECT_EQ((*history)[0].version, 2);
  EXPECT_EQ((*history)[0].rules_sha256, "sha-c");
  EXPECT_EQ((*history)[0].rules_version, 3);
  EXPECT_EQ((*history)[1].version, 1);
  EXPECT_EQ((*history)[1].rules_version, 2);
  EXPECT_EQ(NumberOf(store->RecordRuleVersion("late", "sha-l", "l", "l.yaml", "2024-01-01T00:00:00Z")), 1);
  auto late = store->BeginRun(MakeBegin("late", "l1", "sha-l"));
  ASSERT_TRUE(late.ok()) << late.status().message();
  EXPECT_EQ(late->version, 1);
}

TEST_P(RunStoreServiceTest, RunIdsAreFoundByPrefix) {
  auto store = OpenOrDie();
  ASSERT_NE(store, nullptr);
  for (const char* id : {"abc-1", "abc-2", "abd-1", "ABC-9", "a%c-1"}) {
    ASSERT_TRUE(store->BeginRun(MakeBegin("orders", id)).ok());
  }
  auto two = store->FindRunIds("abc", 10);
  ASSERT_TRUE(two.ok()) << two.status().message();
  EXPECT_EQ(two->count, 2);
  EXPECT_EQ(two->run_ids, (std::vector<std::string>{"abc-1", "abc-2"}));
  auto one = store->FindRunIds("abd", 10);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->run_ids, (std::vector<std::string>{"abd-1"}));
  EXPECT_EQ(store->FindRunIds("a%", 10)->run_ids, (std::vector<std::string>{"a%c-1"}));  // % is literal
  EXPECT_EQ(store->FindRunIds("ABC", 10)->count, 1);                                     // case counts
  EXPECT_EQ(store->FindRunIds("zzz", 10)->count, 0);
  auto listed = store->FindRunIds("a", 2);
  ASSERT_TRUE(listed.ok());
  EXPECT_EQ(listed->count, 4);
  EXPECT_EQ(listed->run_ids.size(), 2u);
}

TEST_P(RunStoreServiceTest, DropSchemaCacheDropsOnlyThatDatasetsEntries) {
  auto store = OpenOrDie();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->RecordRuleVersion("orders", "sha-o1", "o1", "o.yaml", "2024-01-01T00:00:00Z").ok());
  ASSERT_TRUE(store->RecordRuleVersion("orders", "sha-o2", "o2", "o.yaml", "2024-01-02T00:00:00Z").ok());
  ASSERT_TRUE(store->RecordRuleVersion("users", "sha-u", "u", "u.yaml", "2024-01-01T00:00:00Z").ok());
  ASSERT_TRUE(store->CacheSchema({"a.csv", 1, 2, "sha-o1"}, "[1]").ok());
  ASSERT_TRUE(store->CacheSchema({"b.csv", 1, 2, "sha-o2"}, "[2]").ok());
  ASSERT_TRUE(store->CacheSchema({"c.csv", 1, 2, "sha-u"}, "[3]").ok());
  ASSERT_TRUE(store->DropSchemaCache("orders").ok());
  EXPECT_FALSE(store->CachedSchema({"a.csv", 1, 2, "sha-o1"})->has_value());
  EXPECT_FALSE(store->CachedSchema({"b.csv", 1, 2, "sha-o2"})->has_value());
  EXPECT_EQ(store->CachedSchema({"c.csv", 1, 2, "sha-u"})->value_or(""), "[3]");
  EXPECT_TRUE(store->DropSchemaCache("nobody").ok());
}

INSTANTIATE_TEST_SUITE_P(Backends, RunStoreServiceTest,
                         ::testing::Values(Backend::kSqlite, Backend::kPostgres), BackendName);

}  // namespace
}  // namespace griffin::store_test
