#include "server/run_recorder.h"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>

#include "store/sqlite_store.h"
#include "store/store_test_util.h"

namespace griffin::server {
namespace {

using store_test::MakeBegin;
using store_test::MakeFinish;

class RunRecorderTest : public ::testing::Test {
 protected:
  std::string Uri() const { return dir_.path() + "/runs.db"; }
  store_test::TempDir dir_;
};

RunRecord MakeRun(const std::string& id, int n) { return {MakeBegin("orders", id), MakeFinish(id, n)}; }

TEST_F(RunRecorderTest, WritesRunsRuleVersionsAndCacheDropsInOrder) {
  auto recorder = RunRecorder::Open(Uri(), 16);
  ASSERT_TRUE(recorder.ok()) << recorder.status().message();
  const auto deadline = RunRecorder::Clock::now() + std::chrono::seconds(10);
  std::atomic<int64_t> number{0};  // set on the writer thread
  (*recorder)->RecordRuleVersion("orders", "sha-new", "text", "rules/o.yaml", "2024-01-01T00:00:00Z",
                                 [&number](int64_t n) { number = n; });
  for (int i = 0; i < 5; ++i) EXPECT_TRUE((*recorder)->Record(MakeRun("r" + std::to_string(i), i), deadline));
  EXPECT_TRUE((*recorder)->TryRecord(MakeRun("sampled", 9)));
  (*recorder)->DropSchemaCache("orders");
  (*recorder)->Close();
  EXPECT_EQ((*recorder)->written(), 8);
  EXPECT_EQ((*recorder)->failed(), 0);
  EXPECT_FALSE((*recorder)->Record(MakeRun("late", 1), deadline));  // closed

  auto store = OpenRunStore(Uri());
  ASSERT_TRUE(store.ok());
  auto history = (*store)->History("orders", 0);
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), 6u);
  for (const RunSummary& run : *history) EXPECT_EQ(run.status, "complete");
  auto versions = (*store)->RuleVersions("orders");
  ASSERT_TRUE(versions.ok());
  EXPECT_EQ(versions->size(), 2u);  // sha-new and the runs' sha-a
  EXPECT_EQ(number.load(), 1);      // sha-new, the first the store saw
}

TEST_F(RunRecorderTest, AFullQueueDropsSampledRunsAndFailuresAreCounted) {
  auto recorder = RunRecorder::Open(Uri(), 1);
  ASSERT_TRUE(recorder.ok());
  int accepted = 0;
  for (int i = 0; i < 200; ++i) accepted += (*recorder)->TryRecord(MakeRun("t" + std::to_string(i), i)) ? 1 : 0;
  (*recorder)->Flush();
  EXPECT_EQ((*recorder)->dropped(), 200 - accepted);
  EXPECT_EQ((*recorder)->written(), accepted);
  // A duplicate run id fails in the store: logged and counted, not fatal.
  const auto deadline = RunRecorder::Clock::now() + std::chrono::seconds(10);
  EXPECT_TRUE((*recorder)->Record(MakeRun("t0", 1), deadline));
  (*recorder)->Flush();
  EXPECT_EQ((*recorder)->failed(), 1);  // t0 was accepted: the queue was empty then
  EXPECT_TRUE((*recorder)->Record(MakeRun("after", 1), deadline));
  (*recorder)->Close();
  EXPECT_EQ((*recorder)->written(), accepted + 1);
}

TEST_F(RunRecorderTest, AWaitedRunSaysHowItsWriteWentAndAFailedOneIsMarked) {
  auto recorder = RunRecorder::Open(Uri(), 4);
  ASSERT_TRUE(recorder.ok());
  const auto deadline = RunRecorder::Clock::now() + std::chrono::seconds(10);
  EXPECT_EQ((*recorder)->RecordAndWait(MakeRun("ok", 1), deadline).outcome, RunRecorder::Outcome::kRecorded);
  {
    // The store refuses to complete a run from now on, as a full disk would.
    auto conn = ConnectSqlite(Uri());
    ASSERT_TRUE(conn.ok());
    ASSERT_TRUE(Exec(**conn, "CREATE TRIGGER refuse BEFORE UPDATE OF status ON runs WHEN NEW.status = 'complete'"
                             " BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
                    .ok());
  }
  const RunRecorder::Waited failed = (*recorder)->RecordAndWait(MakeRun("lost", 2), deadline);
  EXPECT_EQ(failed.outcome, RunRecorder::Outcome::kFailed);
  EXPECT_NE(failed.error.find("database or disk is full"), std::string::npos) << failed.error;
  EXPECT_TRUE((*recorder)->Record(MakeRun("queued", 3), deadline));  // not waited for: marked too
  (*recorder)->Close();
  EXPECT_EQ((*recorder)->failed(), 2);

  auto store = OpenRunStore(Uri());
  ASSERT_TRUE(store.ok());
  auto history = (*store)->History("orders", 0);
  ASSERT_TRUE(history.ok());
  std::vector<std::string> statuses;
  for (const RunSummary& run : *history) statuses.push_back(run.run_id + ":" + run.status);
  EXPECT_EQ(statuses, (std::vector<std::string>{"queued:record_failed", "lost:record_failed", "ok:complete"}));
}

TEST_F(RunRecorderTest, ABadStoreFailsAtOpen) {
  auto recorder = RunRecorder::Open(dir_.path() + "/no/such/dir/\x01/x.txt", 4);
  EXPECT_FALSE(recorder.ok());
}

}  // namespace
}  // namespace griffin::server
