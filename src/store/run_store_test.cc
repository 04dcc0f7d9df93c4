// Every RunStore method, on SQLite and on PostgreSQL (a real server; see
// store_test_util.h).
#include "store/run_store.h"

#include <gtest/gtest.h>

#include "store/store_test_util.h"

namespace griffin::store_test {
namespace {

using RunStoreTest = StoreBackendTest;

std::string Str(const std::optional<std::string>& s) { return s.value_or("<null>"); }

TEST(RunStoreUriTest, OnlyTheStoreFormsAreAccepted) {
  for (const char* ok : {"a.db", "x/y.sqlite", "z.sqlite3", "sqlite:any.name", "postgresql://u@h/db", "postgres://h/db"})
    EXPECT_TRUE(CheckRunStoreUri(ok).ok()) << ok;
  Status refused = CheckRunStoreUri("foo.txt");
  EXPECT_EQ(refused.code(), StatusCode::kUsageError);
  EXPECT_EQ(refused.message().rfind("--store foo.txt: expected a .db", 0), 0u) << refused.message();
  EXPECT_EQ(OpenRunStore("foo.txt").status().code(), StatusCode::kUsageError);
}

TEST_P(RunStoreTest, BeginRunNumbersEachDatasetFromOne) {
  auto store = OpenOrDie();
  ASSERT_NE(store, nullptr);
  for (int i = 1; i <= 3; ++i) {
    auto ticket = store->BeginRun(MakeBegin("orders", std::string("o").append(std::to_string(i))));
    ASSERT_TRUE(ticket.ok()) << ticket.status().message();
    EXPECT_EQ(ticket->version, i);
    EXPECT_EQ(ticket->run_id, std::string("o").append(std::to_string(i)));
  }
  auto other = store->BeginRun(MakeBegin("users", "u1"));
  ASSERT_TRUE(other.ok()) << other.status().message();
  EXPECT_EQ(other->version, 1);

  auto history = store->History("orders", 10);
  ASSERT_TRUE(history.ok()) << history.status().message();
  ASSERT_EQ(history->size(), 3u);
  for (const RunSummary& run : *history) {
    EXPECT_EQ(run.status, "running");
    EXPECT_EQ(run.ended_at, "");
  }
}

TEST_P(RunStoreTest, FinishRunRecordsTheRunAndEveryChildRow) {
  auto store = OpenOrDie();
  ASSERT_NE(store, nullptr);
  BeginRunRequest begin = MakeBegin("orders", "run-1", "sha-a", "2024-05-01T10:00:00Z");
  ASSERT_TRUE(store->BeginRun(begin).ok());
  FinishRunRequest finish = MakeFinish("run-1", 4);
  finish.ended_at = "2024-05-01T10:00:05Z";
  Status s = store->FinishRun("run-1", finish);
  ASSERT_TRUE(s.ok()) << s.message();

  auto history = store->History("orders", 10);
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), 1u);
  const RunSummary& run = (*history)[0];
  EXPECT_EQ(run.run_id, "run-1");
  EXPECT_EQ(run.version, 1);
  EXPECT_EQ(run.started_at, "2024-05-01T10:00:00Z");
  EXPECT_EQ(run.ended_at, "2024-05-01T10:00:05Z");
  EXPECT_EQ(run.status, "complete");
  EXPECT_EQ(run.rows, 1004);
  EXPECT_EQ(run.bad_rows, 4);
  EXPECT_EQ(run.quality_score, 0.5 + 4 / 1024.0);
  EXPECT_TRUE(run.passed);

  auto report = store->ReportJson("run-1");
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(Str(*report), "{\"run_id\": \"run-1\", \"n\": 4}");

  auto runs = Rows("SELECT malformed_rows, griffin_version, rules_sha256, rules_path, abort_reason"
                   " FROM runs WHERE run_id = $1", {SqlParam(std::string("run-1"))});
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(Str(runs[0][0]), "1");
  EXPECT_EQ(Str(runs[0][1]), "0.1.0");
  EXPECT_EQ(Str(runs[0][2]), "sha-a");
  EXPECT_EQ(Str(runs[0][3]), "rules/orders.yaml");
  EXPECT_EQ(runs[0][4], std::nullopt);

  auto checks = Rows("SELECT position, name, column_name, check_name, severity, evaluated,"
                     " violations, pass_rate, observed, passed FROM check_results"
                     " WHERE run_id = 'run-1' ORDER BY position");
  ASSERT_EQ(checks.size(), 3u);
  for (int k = 0; k < 3; ++k) {
    const CheckResultRecord& want = finish.checks[k];
    EXPECT_EQ(ParseInt(checks[k][0]), k);
    EXPECT_EQ(Str(checks[k][1]), want.name);
    EXPECT_EQ(Str(checks[k][2]), want.column);
    EXPECT_EQ(Str(checks[k][3]), want.check);
    EXPECT_EQ(Str(checks[k][4]), "error");
    EXPECT_EQ(ParseInt(checks[k][5]), 1004);
    EXPECT_EQ(ParseInt(checks[k][6]), k);
    EXPECT_EQ(ParseDouble(checks[k][7]), want.pass_rate);
    EXPECT_EQ(checks[k][8], want.observed);
    EXPECT_EQ(ParseBool(checks[k][9]), want.passed);
  }
  EXPECT_EQ(Str(checks[2][8]), "1004");

  auto columns = Rows("SELECT column_name, value_count, null_count, min_value, max_value, mean,"
                      " stddev, distinct_count, distinct_exact FROM column_metrics"
                      " WHERE run_id = 'run-1' ORDER BY position");
  ASSERT_EQ(columns.size(), 2u);
  EXPECT_EQ(Str(columns[0][0]), "run-1/col0");
  EXPECT_EQ(ParseInt(columns[0][1]), 1004);
  EXPECT_EQ(ParseInt(columns[0][2]), 0);
  EXPECT_EQ(Str(columns[0][3]), "-1.5");
  EXPECT_EQ(Str(columns[0][4]), "4");
  EXPECT_EQ(ParseDouble(columns[0][5]), 0.1);  // doubles round-trip exactly
  EXPECT_EQ(ParseDouble(columns[0][6]), 2.25);
  EXPECT_EQ(ParseInt(columns[0][7]), 7);
  EXPECT_TRUE(ParseBool(columns[0][8]));
  EXPECT_EQ(Str(columns[1][0]), "run-1/col1");
  EXPECT_EQ(columns[1][3], std::nullopt);
  EXPECT_EQ(columns[1][5], std::nullopt);
  EXPECT_FALSE(ParseBool(columns[1][8], true));

  auto inputs = Rows("SELECT path, size_bytes, mtime_ns, etag, rows FROM run_inputs"
                     " WHERE run_id = 'run-1' ORDER BY position");
  ASSERT_EQ(inputs.size(), 1u);
  EXPECT_EQ(Str(inputs[0][0]), "run-1.csv");
  EXPECT_EQ(ParseInt(inputs[0][1]), 12349);
  EXPECT_EQ(ParseInt(inputs[0][2]), 1700000000000000004LL);
  EXPECT_EQ(Str(inputs[0][3]), "");
  EXPECT_EQ(ParseInt(inputs[0][4]), 1004);

  auto outputs = Rows("SELECT path, kind, rows, size_bytes, sha256, etag FROM run_outputs"
                      " WHERE run_id = 'run-1' ORDER BY position");
  ASSERT_EQ(outputs.size(), 2u);
  EXPECT_EQ(Str(outputs[0][0]), "run-1.clean.parquet");
  EXPECT_EQ(Str(outputs[0][1]), "clean");
  EXPECT_EQ(ParseInt(outputs[0][2]), 1000);
  EXPECT_EQ(ParseInt(outputs[0][3]), 555);
  EXPECT_EQ(Str(outputs[0][4]), "sha-clean-run-1");
  EXPECT_EQ(Str(outputs[0][5]), "");  // a local file has no ETag
  EXPECT_EQ(Str(outputs[1][0]), "s3://b/run-1.bad.csv");
  EXPECT_EQ(Str(outputs[1][1]), "quarantine");
  EXPECT_EQ(ParseInt(outputs[1][2]), 4);
  EXPECT_EQ(Str(outputs[1][5]), "etag-run-1");
}

TEST_P(RunStoreTest, FinishRunOnlyFinishesARunningRun) {
  auto store = OpenOrDie();
  ASSERT_NE(store, nullptr);
  Status unknown = store->FinishRun("nope", MakeFinish("nope", 0));
  EXPECT_EQ(unknown.code(), StatusCode::kStoreError);
  EXPECT_NE(unknown.message().find(": cannot finish run nope: no such run"), std::string::npos)
      << unknown.message();

  ASSERT_TRUE(store->BeginRun(MakeBegin("orders", "r1")).ok());
  ASSERT_TRUE(store->FinishRun("r1", MakeFinish("r1", 1)).ok());
  Status twice = store->FinishRun("r1", MakeFinish("r1", 2));
  EXPECT_EQ(twice.code(), StatusCode::kStoreError);
  EXPECT_NE(twice.message().find(": cannot finish run r1: it is complete"), std::string::npos)
      << twice.message();
  // The failed second finish changed nothing.
  EXPECT_EQ(Rows("SELECT COUNT(*) FROM check_results WHERE run_id = 'r1'")[0][0], "3");
  EXPECT_EQ(Rows("SELECT bad_rows FROM runs WHERE run_id = 'r1'")[0][0], "1");
}

TEST_P(RunStoreTest, FailingFinishLeavesTheRunRunningWithNoChildRows) {
  auto store = OpenOrDie();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->BeginRun(MakeBegin("orders", "r1")).ok());
  FinishRunRequest finish = MakeFinish("r1", 1);
  finish.checks[2].position = 0;  // duplicate key: the last insert fails
  Status s = store->FinishRun("r1", finish);
  EXPECT_EQ(s.code(), StatusCode::kStoreError);
  EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.message();
  EXPECT_EQ(Rows("SELECT status FROM runs WHERE run_id = 'r1'")[0][0], "running");
  EXPECT_EQ(Rows("SELECT COUNT(*) FROM check_results")[0][0], "0");
  EXPECT_EQ(Rows("SELECT COUNT(*) FROM column_metrics")[0][0], "0");
  // The store stays usable after the rollback.
  EXPECT_TRUE(store->FinishRun("r1", MakeFinish("r1", 1)).ok());
}

TEST_P(RunStoreTest, AbortRunMarksTheRunAbortedWithItsReason) {
  auto store = OpenOrDie();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->BeginRun(MakeBegin("orders", "r1")).ok());
  ASSERT_TRUE(store->BeginRun(MakeBegin("orders", "r2")).ok());
  Status s = store->AbortRun("r1", "input error: orders.csv: no such file");
  ASSERT_TRUE(s.ok()) << s.message();
  auto rows = Rows("SELECT status, abort_reason, ended_at FROM runs WHERE run_id = 'r1'");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(Str(rows[0][0]), "aborted");
  EXPECT_EQ(Str(rows[0][1]), "input error: orders.csv: no such file");
  EXPECT_EQ(Str(rows[0][2]).size(), 20u);  // 2024-05-01T10:00:00Z

  Status finish = store->FinishRun("r1", MakeFinish("r1", 1));
  EXPECT_NE(finish.message().find("cannot finish run r1: it is aborted"), std::string::npos);
  ASSERT_TRUE(store->FinishRun("r2", MakeFinish("r2", 2)).ok());
  Status abort_complete = store->AbortRun("r2", "late");
  EXPECT_NE(abort_complete.message().find("cannot abort run r2: it is complete"),
            std::string::npos) << abort_complete.message();
  EXPECT_NE(store->AbortRun("zz", "x").message().find("cannot abort run zz: no such run"),
            std::string::npos);
  // An aborted run keeps its version: the next run gets 3.
  auto ticket = store->BeginRun(MakeBegin("orders", "r3"));
  ASSERT_TRUE(ticket.ok());
  EXPECT_EQ(ticket->version, 3);
}

TEST_P(RunStoreTest, AFailedFinishIsMarkedRecordFailedNotLeftRunning) {
  auto store = OpenOrDie();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->BeginRun(MakeBegin("orders", "r1")).ok());
  FinishRunRequest finish = MakeFinish("r1", 1);
  finish.checks[2].position = 0;  // duplicate key: the finish fails and rolls back
  Status failed = store->FinishRun("r1", finish);
  ASSERT_FALSE(failed.ok());
  Status marked = store->MarkRecordFailed("r1", failed.message());
  ASSERT_TRUE(marked.ok()) << marked.message();
  auto rows = Rows("SELECT status, abort_reason, ended_at FROM runs WHERE run_id = 'r1'");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(Str(rows[0][0]), "record_failed");
  EXPECT_EQ(Str(rows[0][1]), failed.message());
  EXPECT_EQ(Str(rows[0][2]).size(), 20u);
  auto history = store->History("orders", 10);
  ASSERT_TRUE(history.ok());
  EXPECT_EQ((*history)[0].status, "record_failed");
  // Only a running run can be marked; a record_failed run cannot finish later.
  EXPECT_NE(store->MarkRecordFailed("r1", "again").message().find("cannot mark record_failed run r1: it is record_failed"),
            std::string::npos);
  EXPECT_NE(store->FinishRun("r1", MakeFinish("r1", 1)).message().find("cannot finish run r1: it is record_failed"),
            std::string::npos);
}

TEST_P(RunStoreTest, HistoryIsNewestFirstAndLimited) {
  auto store = OpenOrDie();
  ASSERT_NE(store, nullptr);
  for (int i = 1; i <= 5; ++i) {
    std::string id = std::string("r").append(std::to_string(i));
    ASSERT_TRUE(store->BeginRun(MakeBegin("orders", id)).ok());
    ASSERT_TRUE(store->FinishRun(id, MakeFinish(id, i)).ok());
  }
  ASSERT_TRUE(store->BeginRun(MakeBegin("other", "x1")).ok());
  auto two = store->History("orders", 2);
  ASSERT_TRUE(two.ok());
  ASSERT_EQ(two->size(), 2u);
  EXPECT_EQ((*two)[0].run_id, "r5");
  EXPECT_EQ((*two)[0].version, 5);
  EXPECT_EQ((*two)[0].bad_rows, 5);
  EXPECT_FALSE((*two)[0].passed);
  EXPECT_EQ((*two)[1].run_id, "r4");
  EXPECT_TRUE((*two)[1].passed);
  auto all = store->History("orders", 0);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 5u);
  EXPECT_EQ(all->back().version, 1);
  auto none = store->History("missing", 10);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST_P(RunStoreTest, MetricHistoryIsNewestFirstOverCompleteRunsWithTheValue) {
  auto store = OpenOrDie();
  ASSERT_NE(store, nullptr);
  for (int i = 1; i <= 4; ++i) {
    std::string id = std::string("m").append(std::to_string(i));
    ASSERT_TRUE(store->BeginRun(MakeBegin("orders", id)).ok());
    FinishRunRequest finish = MakeFinish(id, i);
    finish.columns[0].column = "amount";   // min "-1.5", max i, mean 0.1, 1000 + i values, no nulls
    finish.columns[1].column = "country";  // no mean, 1 null
    if (i == 3) finish.columns[0].mean.reset();
    ASSERT_TRUE(store->FinishRun(id, finish).ok());
  }
  ASSERT_TRUE(store->BeginRun(MakeBegin("orders", "m5")).ok());  // running: never history
  auto rows = store->MetricHistory("orders", "", "row_count", 3);
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  ASSERT_EQ(rows->size(), 3u);
  EXPECT_EQ((*rows)[0].run_id, "m4");
  EXPECT_EQ((*rows)[0].version, 4);
  EXPECT_EQ((*rows)[0].value, 1004);
  EXPECT_EQ((*rows)[2].value, 1002);
  auto score = store->MetricHistory("orders", "", "quality_score", 10);
  ASSERT_TRUE(score.ok());
  ASSERT_EQ(score->size(), 4u);
  EXPECT_DOUBLE_EQ((*score)[0].value, 0.5 + 4.0 / 1024.0);
  auto mean = store->MetricHistory("orders", "amount", "mean", 10);  // m3 has none
  ASSERT_TRUE(mean.ok()) << mean.status().message();
  ASSERT_EQ(mean->size(), 3u);
  EXPECT_EQ((*mean)[1].run_id, "m2");
  EXPECT_DOUBLE_EQ((*mean)[1].value, 0.1);
  auto max = store->MetricHistory("orders", "amount", "max", 10);
  ASSERT_TRUE(max.ok());
  ASSERT_EQ(max->size(), 4u);
  EXPECT_EQ((*max)[0].value, 4);
  auto nulls = store->MetricHistory("orders", "country", "null_fraction", 1);
  ASSERT_TRUE(nulls.ok());
  ASSERT_EQ(nulls->size(), 1u);
  EXPECT_DOUBLE_EQ((*nulls)[0].value, 1.0 / 1005.0);
  auto none = store->MetricHistory("orders", "country", "mean", 10);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  EXPECT_FALSE(store->MetricHistory("orders", "", "sum", 10).ok());
}

TEST_P(RunStoreTest, ReportJsonIsAbsentForUnknownOrUnfinishedRuns) {
  auto store = OpenOrDie();
  ASSERT_NE(store, nullptr);
  auto unknown = store->ReportJson("nope");
  ASSERT_TRUE(unknown.ok());
  EXPECT_EQ(*unknown, std::nullopt);
  ASSERT_TRUE(store->BeginRun(MakeBegin("orders", "r1")).ok());
  auto running = store->ReportJson("r1");
  ASSERT_TRUE(running.ok());
  EXPECT_EQ(*running, std::nullopt);
}

TEST_P(RunStoreTest, RuleVersionsAreOldestFirstWithRunCounts) {
  auto store = OpenOrDie();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->BeginRun(MakeBegin("orders", "r1", "sha-b", "2024-05-01T10:00:00Z")).ok());
  ASSERT_TRUE(store->BeginRun(MakeBegin("orders", "r2", "sha-b", "2024-05-02T10:00:00Z")).ok());
  ASSERT_TRUE(store->BeginRun(MakeBegin("orders", "r3", "sha-a", "2024-05-03T10:00:00Z")).ok());
  ASSERT_TRUE(store->BeginRun(MakeBegin("users", "u1", "sha-a", "2024-05-04T10:00:00Z")).ok());
  auto versions = store->RuleVersions("orders");
  ASSERT_TRUE(versions.ok()) << versions.status().message();
  ASSERT_EQ(versions->size(), 2u);
  EXPECT_EQ((*versions)[0].sha256, "sha-b");
  EXPECT_EQ((*versions)[0].first_seen, "2024-05-01T10:00:00Z");
  EXPECT_EQ((*versions)[0].text, "dataset: orders\n# rules sha-b\n");
  EXPECT_EQ((*versions)[0].runs, 2);
  EXPECT_EQ((*versions)[1].sha256, "sha-a");
  EXPECT_EQ((*versions)[1].first_seen, "2024-05-03T10:00:00Z");
  EXPECT_EQ((*versions)[1].runs, 1);
  auto users = store->RuleVersions("users");
  ASSERT_TRUE(users.ok());
  ASSERT_EQ(users->size(), 1u);
  EXPECT_EQ((*users)[0].first_seen, "2024-05-04T10:00:00Z");
  EXPECT_TRUE(store->RuleVersions("missing")->empty());
}

TEST_P(RunStoreTest, SchemaCacheHitsOnTheSameKeyAndDropsOtherShas) {
  auto store = OpenOrDie();
  ASSERT_NE(store, nullptr);
  SchemaCacheKey key{"data/orders.csv", 100, 200, "sha-a"};
  auto miss = store->CachedSchema(key);
  ASSERT_TRUE(miss.ok());
  EXPECT_EQ(*miss, std::nullopt);
  ASSERT_TRUE(store->CacheSchema(key, "{\"v\": 1}").ok());
  ASSERT_TRUE(store->CacheSchema({"data/users.csv", 5, 6, "sha-a"}, "{\"u\": 1}").ok());
  EXPECT_EQ(Str(*store->CachedSchema(key)), "{\"v\": 1}");
  ASSERT_TRUE(store->CacheSchema(key, "{\"v\": 2}").ok());  // overwrite
  EXPECT_EQ(Str(*store->CachedSchema(key)), "{\"v\": 2}");
  EXPECT_EQ(*store->CachedSchema({"data/orders.csv", 101, 200, "sha-a"}), std::nullopt);
  EXPECT_EQ(*store->CachedSchema({"data/orders.csv", 100, 201, "sha-a"}), std::nullopt);

  SchemaCacheKey new_rules{"data/orders.csv", 100, 200, "sha-b"};
  ASSERT_TRUE(store->CacheSchema(new_rules, "{\"v\": 3}").ok());
  EXPECT_EQ(*store->CachedSchema(key), std::nullopt);  // dropped: another rules sha256
  EXPECT_EQ(Str(*store->CachedSchema(new_rules)), "{\"v\": 3}");
  EXPECT_EQ(Str(*store->CachedSchema({"data/users.csv", 5, 6, "sha-a"})), "{\"u\": 1}");
  EXPECT_EQ(Rows("SELECT COUNT(*) FROM schema_cache")[0][0], "2");
}

TEST_P(RunStoreTest, PreviousSchemaIgnoresSizeAndMtimeButNotRules) {
  auto store = OpenOrDie();
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(*store->PreviousSchema("data/orders.csv", "sha-a"), std::nullopt);
  ASSERT_TRUE(store->CacheSchema({"data/orders.csv", 100, 200, "sha-a"}, "[1]").ok());
  EXPECT_EQ(Str(*store->PreviousSchema("data/orders.csv", "sha-a")), "[1]");
  EXPECT_EQ(*store->PreviousSchema("data/orders.csv", "sha-b"), std::nullopt);
  ASSERT_TRUE(store->CacheSchema({"data/orders.csv", 150, 300, "sha-a"}, "[2]").ok());  // the file changed
  EXPECT_EQ(Str(*store->PreviousSchema("data/orders.csv", "sha-a")), "[2]");
}

// A table's schema snapshot is keyed by its schema version: another version
// misses, and caching it replaces the entry (PreviousSchema finds it).
TEST_P(RunStoreTest, SchemaCacheOfATableIsKeyedByItsVersion) {
  auto store = OpenOrDie();
  ASSERT_NE(store, nullptr);
  const std::string table = "sqlite:///d.db?table=t";
  ASSERT_TRUE(store->CacheSchema({table, 0, 0, "sha-a", "v1"}, "[1]").ok());
  EXPECT_EQ(Str(*store->CachedSchema({table, 0, 0, "sha-a", "v1"})), "[1]");
  EXPECT_EQ(*store->CachedSchema({table, 0, 0, "sha-a", "v2"}), std::nullopt);
  ASSERT_TRUE(store->CacheSchema({table, 0, 0, "sha-a", "v2"}, "[2]").ok());
  EXPECT_EQ(*store->CachedSchema({table, 0, 0, "sha-a", "v1"}), std::nullopt);
  EXPECT_EQ(Str(*store->PreviousSchema(table, "sha-a")), "[2]");
  EXPECT_EQ(Rows("SELECT COUNT(*) FROM schema_cache")[0][0], "1");
}

// Watermarks (source.incremental) are written with the run's record, in its
// transaction: none before, the last recorded run's after, none from a run
// whose record failed.
TEST_P(RunStoreTest, WatermarksAdvanceOnlyWithARecordedRun) {
  auto store = OpenOrDie();
  ASSERT_NE(store, nullptr);
  const std::string source = "postgresql://u:***@h/db?table=t";
  EXPECT_FALSE(store->Watermark("orders", source, "updated_at")->has_value());
  ASSERT_TRUE(store->BeginRun(MakeBegin("orders", "w1")).ok());
  FinishRunRequest finish = MakeFinish("w1", 0);
  finish.watermarks.push_back({source, "updated_at", "AAA=", "2024-01-01"});
  ASSERT_TRUE(store->FinishRun("w1", finish).ok());
  auto first = store->Watermark("orders", source, "updated_at");
  ASSERT_TRUE(first.ok()) << first.status().message();
  ASSERT_TRUE(first->has_value());
  EXPECT_EQ((*first)->value, "AAA=");
  EXPECT_EQ((*first)->text, "2024-01-01");
  EXPECT_FALSE(store->Watermark("users", source, "updated_at")->has_value());
  EXPECT_FALSE(store->Watermark("orders", source, "id")->has_value());
  // A run whose record fails (a duplicate check position) moves nothing.
  ASSERT_TRUE(store->BeginRun(MakeBegin("orders", "w2")).ok());
  FinishRunRequest failing = MakeFinish("w2", 0);
  failing.watermarks.push_back({source, "updated_at", "BBB=", "2024-02-01"});
  failing.checks[2].position = 0;
  EXPECT_FALSE(store->FinishRun("w2", failing).ok());
  EXPECT_EQ((*store->Watermark("orders", source, "updated_at"))->value, "AAA=");
  ASSERT_TRUE(store->BeginRun(MakeBegin("orders", "w3")).ok());
  FinishRunRequest next = MakeFinish("w3", 1);
  next.watermarks.push_back({source, "updated_at", "CCC=", "2024-03-01"});
  ASSERT_TRUE(store->FinishRun("w3", next).ok());
  EXPECT_EQ((*store->Watermark("orders", source, "updated_at"))->text, "2024-03-01");
  EXPECT_EQ(Rows("SELECT run_id FROM watermarks")[0][0], "w3");
}

TEST_P(RunStoreTest, NextBeginAbortsRunsOfTheDatasetRunningOver24Hours) {
  auto store = OpenOrDie();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->BeginRun(MakeBegin("orders", "old", "sha-a", "2000-01-01T00:00:00Z")).ok());
  ASSERT_TRUE(store->BeginRun(MakeBegin("users", "old-u", "sha-a", "2000-01-01T00:00:00Z")).ok());
  ASSERT_TRUE(store->BeginRun(MakeBegin("orders", "recent")).ok());
  auto rows = Rows("SELECT run_id, status, abort_reason FROM runs ORDER BY run_id");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(Str(rows[0][0]), "old");
  EXPECT_EQ(Str(rows[0][1]), "aborted");
  EXPECT_EQ(Str(rows[0][2]), "stale: still running after 24 hours");
  EXPECT_EQ(Str(rows[1][0]), "old-u");
  EXPECT_EQ(Str(rows[1][1]), "running");  // another dataset: untouched
  EXPECT_EQ(Str(rows[2][0]), "recent");
  EXPECT_EQ(Str(rows[2][1]), "running");
}

TEST_P(RunStoreTest, DuplicateRunIdFailsAndHandsOutNoVersion) {
  auto store = OpenOrDie();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->BeginRun(MakeBegin("orders", "r1")).ok());
  auto dup = store->BeginRun(MakeBegin("orders", "r1"));
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.status().code(), StatusCode::kStoreError);
  EXPECT_EQ(dup.status().message().find('\n'), std::string::npos);
  auto next = store->BeginRun(MakeBegin("orders", "r2"));
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(next->version, 2);
  EXPECT_FALSE(store->BeginRun(MakeBegin("", "r3")).ok());
}

TEST_P(RunStoreTest, ValuesAreBoundNotSpliced) {
  auto store = OpenOrDie();
  ASSERT_NE(store, nullptr);
  std::string dataset = "o'brien\"; DROP TABLE runs; --";
  ASSERT_TRUE(store->BeginRun(MakeBegin(dataset, "r'1")).ok());
  FinishRunRequest finish = MakeFinish("r'1", 0);
  finish.report_json = "{\"msg\": \"caf\xc3\xa9 'quoted' $1 ?1 \\\\ \"}";
  ASSERT_TRUE(store->FinishRun("r'1", finish).ok());
  auto history = store->History(dataset, 5);
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), 1u);
  EXPECT_EQ((*history)[0].run_id, "r'1");
  EXPECT_EQ(Str(*store->ReportJson("r'1")), finish.report_json);
}

TEST_P(RunStoreTest, ReopenedStoreKeepsEverything) {
  {
    auto store = OpenOrDie();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->BeginRun(MakeBegin("orders", "r1")).ok());
    ASSERT_TRUE(store->FinishRun("r1", MakeFinish("r1", 1)).ok());
  }
  auto store = OpenRunStore(scratch_.uri());
  ASSERT_TRUE(store.ok()) << store.status().message();
  auto history = (*store)->History("orders", 5);
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), 1u);
  EXPECT_EQ((*history)[0].status, "complete");
  auto ticket = (*store)->BeginRun(MakeBegin("orders", "r2"));
  ASSERT_TRUE(ticket.ok());
  EXPECT_EQ(ticket->version, 2);
}

TEST_P(RunStoreTest, RunProfilesAndTheLastPassedRunWithOne) {
  auto store = OpenOrDie();
  ASSERT_NE(store, nullptr);
  auto none = store->LastPassedRunWithProfile("orders");
  ASSERT_TRUE(none.ok()) << none.status().message();
  EXPECT_FALSE(none->has_value());
  // run 0 passes with a profile, run 1 fails with one, run 2 passes without
  // one, run 3 is still running: the last passed run with a profile is run 0.
  const std::string binary("griffin-profile-1\0\x01\xff state", 26);
  for (int n = 0; n < 4; ++n) {
    const std::string id = "p" + std::to_string(n);
    ASSERT_TRUE(store->BeginRun(MakeBegin("orders", id)).ok());
    if (n == 3) break;
    FinishRunRequest finish = MakeFinish(id, n == 1 ? 1 : 0);
    if (n != 2) finish.profile_state = binary + id;
    ASSERT_TRUE(store->FinishRun(id, finish).ok());
  }
  auto last = store->LastPassedRunWithProfile("orders");
  ASSERT_TRUE(last.ok()) << last.status().message();
  EXPECT_EQ(last->value_or(""), "p0");
  auto profile = store->RunProfile("p1");
  ASSERT_TRUE(profile.ok()) << profile.status().message();
  EXPECT_EQ(profile->value_or(""), binary + "p1");  // bytes, NULs included, as given
  EXPECT_FALSE(store->RunProfile("p2")->has_value());
  EXPECT_FALSE(store->RunProfile("nope")->has_value());
  EXPECT_FALSE(store->LastPassedRunWithProfile("users")->has_value());
}

INSTANTIATE_TEST_SUITE_P(Backends, RunStoreTest,
                         ::testing::Values(Backend::kSqlite, Backend::kPostgres), BackendName);

}  // namespace
}  // namespace griffin::store_test
