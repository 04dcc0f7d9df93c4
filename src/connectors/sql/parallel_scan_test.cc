#include "connectors/sql/parallel_scan.h"

#include <arrow/array/array_primitive.h>
#include <arrow/array/util.h>
#include <arrow/scalar.h>
#include <gtest/gtest.h>

#include <cctype>

#include "connectors/sql/sql_connect.h"
#include "connectors/sql/sql_query.h"
#include "store/store_test_util.h"

namespace griffin::sql {
namespace {

// A table of `rows` rows (i = 1..rows, in insertion order, so ctid order is
// i's order) in a fresh schema, and a view of it.
class RangeScanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bool skip = false;
    const std::string uri = store_test::PostgresTestUri(&skip);
    if (skip) GTEST_SKIP() << "GRIFFIN_NO_PG=1";
    if (uri.empty()) return;
    // A schema per test: ctest runs the tests of this file at once.
    schema_ = "griffin_range_scan_";
    for (char c : std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()))
      schema_ += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    schema_ = schema_.substr(0, 60);
    table_ = "\"" + schema_ + "\".\"t\"";
    auto target = ParseSqlUri(uri + "?table=" + schema_ + ".t");
    ASSERT_TRUE(target.ok()) << target.status().message();
    target_ = *target;
    auto writer = ConnectSql(target_, SqlAccess::kWrite);
    ASSERT_TRUE(writer.ok()) << writer.status().message();
    for (const std::string& sql :
         {"DROP SCHEMA IF EXISTS " + schema_ + " CASCADE", "CREATE SCHEMA " + schema_,
          "CREATE TABLE " + schema_ + ".t AS SELECT i, repeat('x', 100) AS s FROM generate_series(1::bigint, 20000) AS i",
          "CREATE VIEW " + schema_ + ".v AS SELECT * FROM " + schema_ + ".t"}) {
      auto statement = AdbcStatementHandle::Open(*writer, sql, "setup");
      ASSERT_TRUE(statement.ok()) << statement.status().message();
      Status done = (*statement)->ExecuteUpdate("setup");
      ASSERT_TRUE(done.ok()) << sql << ": " << done.message();
    }
  }

  // Opens a range scan of `from` on a fresh connection in a REPEATABLE READ transaction.
  Result<std::shared_ptr<arrow::RecordBatchReader>> Open(const std::string& from, SqlCondition condition,
                                                         RangeScanShape shape) {
    ASSIGN_OR_RETURN(primary_, ConnectSql(target_, SqlAccess::kReadOnly));
    RETURN_IF_ERROR(BeginRepeatableRead(primary_, "test"));
    return OpenPostgresqlRangeScan(primary_, target_, {"\"i\", \"s\"", from, std::move(condition)}, ReadOptions{},
                                   shape);
  }

  // Every i the reader yields, in order.
  static std::vector<int64_t> Ids(arrow::RecordBatchReader& reader) {
    std::vector<int64_t> ids;
    while (true) {
      std::shared_ptr<arrow::RecordBatch> batch;
      arrow::Status status = reader.ReadNext(&batch);
      EXPECT_TRUE(status.ok()) << status.message();
      if (!status.ok() || batch == nullptr) return ids;
      const auto& column = static_cast<const arrow::Int64Array&>(*batch->column(0));
      for (int64_t row = 0; row < column.length(); ++row) ids.push_back(column.Value(row));
    }
  }

  std::string schema_, table_;  // table_: the quoted "schema"."t"
  SqlTarget target_;
  std::shared_ptr<AdbcConnectionHandle> primary_;
};

std::vector<int64_t> Range(int64_t first, int64_t last, int64_t step = 1) {
  std::vector<int64_t> ids;
  for (int64_t i = first; i <= last; i += step) ids.push_back(i);
  return ids;
}

// 20,000 rows of ~140 bytes fill ~370 blocks: with 4-block ranges about 90
// range queries over 2 and 3 connections give every row once, in ctid order.
TEST_F(RangeScanTest, EveryRowOnceInTableOrder) {
  if (target_.table.empty()) return;
  for (int readers : {2, 3}) {
    auto reader = Open(table_, {}, {readers, 4});
    ASSERT_TRUE(reader.ok()) << reader.status().message();
    ASSERT_NE(*reader, nullptr);
    EXPECT_EQ((*reader)->schema()->field(0)->name(), "i");
    EXPECT_EQ(Ids(**reader), Range(1, 20000)) << readers;
  }
}

// The condition and its bound parameters apply to every range.
TEST_F(RangeScanTest, TheConditionAndItsParametersApplyToEveryRange) {
  if (target_.table.empty()) return;
  SqlCondition condition{"i % 7 = 0 AND i > $1", ParamRow({arrow::MakeArrayFromScalar(arrow::Int64Scalar(100), 1)
                                                               .ValueOrDie()})};
  auto reader = Open(table_, condition, {2, 4});
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  ASSERT_NE(*reader, nullptr);
  EXPECT_EQ(Ids(**reader), Range(105, 20000, 7));
}

// Rows another session commits after the scan began are not seen, whichever
// connection reads their block: every reader has the primary's snapshot.
TEST_F(RangeScanTest, EveryReaderSeesTheSnapshotOfTheStart) {
  if (target_.table.empty()) return;
  auto reader = Open(table_, {}, {2, 4});
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  ASSERT_NE(*reader, nullptr);
  auto writer = ConnectSql(target_, SqlAccess::kWrite);
  ASSERT_TRUE(writer.ok());
  auto change = AdbcStatementHandle::Open(*writer, "UPDATE " + schema_ + ".t SET i = -i WHERE i % 2 = 0", "w");
  ASSERT_TRUE(change.ok());
  ASSERT_TRUE((*change)->ExecuteUpdate("w").ok());
  EXPECT_EQ(Ids(**reader), Range(1, 20000));
}

// A view, or a table under two ranges, is read serially by the caller.
TEST_F(RangeScanTest, ViewsAndSmallTablesAreLeftToTheSerialRead) {
  if (target_.table.empty()) return;
  auto view = Open("\"" + schema_ + "\".\"v\"", {}, {2, 4});
  ASSERT_TRUE(view.ok()) << view.status().message();
  EXPECT_EQ(*view, nullptr);
  auto small = Open(table_, {}, {2, 1000});
  ASSERT_TRUE(small.ok()) << small.status().message();
  EXPECT_EQ(*small, nullptr);
  auto serial = Open(table_, {}, {1, 4});
  ASSERT_TRUE(serial.ok()) << serial.status().message();
  EXPECT_EQ(*serial, nullptr);
}

// A server that refuses the second connection (the role
// griffin_test_one_connection of scripts/pg_test_cluster.sh has CONNECTION
// LIMIT 1) leaves the scan to the serial read on the primary.
TEST_F(RangeScanTest, ARefusedReaderConnectionLeavesTheSerialRead) {
  if (target_.table.empty()) return;
  const std::string& base = target_.connection_uri;  // postgresql://griffin_test:PASSWORD@...
  const size_t user = base.find("://") + 3;
  auto limited = ParseSqlUri(base.substr(0, base.find(':', user)) + "_one_connection" + base.substr(base.find(':', user)) +
                             "?table=" + schema_ + ".t");
  ASSERT_TRUE(limited.ok()) << limited.status().message();
  target_ = *limited;
  auto reader = Open(table_, {}, {2, 4});
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  EXPECT_EQ(*reader, nullptr);
  // The primary is still usable: the serial read the caller falls back to.
  auto rows = QueryAll(primary_, "SELECT count(*) FROM " + schema_ + ".t", "test");
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  EXPECT_EQ(*IntegerCell(*(*rows)[0]->column(0), 0, "test"), 20000);
}

// A reader whose server connection dies mid-scan (its backend terminated, as
// by an administrator or a failover) makes the scan fail with the server's
// message, never hang, and the reader is released cleanly.
TEST_F(RangeScanTest, AReaderWhoseConnectionDiesFailsTheScan) {
  if (target_.table.empty()) return;
  auto reader = Open(table_, {}, {2, 1});
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  ASSERT_NE(*reader, nullptr);
  std::shared_ptr<arrow::RecordBatch> batch;
  ASSERT_TRUE((*reader)->ReadNext(&batch).ok());
  ASSERT_NE(batch, nullptr);
  auto killer = ConnectSql(target_, SqlAccess::kWrite);
  ASSERT_TRUE(killer.ok());
  // Every backend whose last query read this test's table: both readers.
  auto killed = QueryAll(*killer,
                         "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE pid <> pg_backend_pid() "
                         "AND query LIKE '%" + schema_ + "%ctid%'",
                         "test");
  ASSERT_TRUE(killed.ok()) << killed.status().message();
  EXPECT_GE(*IntegerCell(*(*killed)[0]->column(0), 0, "test"), 1);
  arrow::Status status;
  int64_t batches = 0;
  while (true) {
    status = (*reader)->ReadNext(&batch);
    if (!status.ok() || batch == nullptr) break;
    ++batches;
  }
  EXPECT_FALSE(status.ok()) << "read " << batches << " more batches and ended without an error";
  reader->reset();  // joins the reader threads: must not hang
}

// Griffin's read-only sessions scan every table from its first block
// (no synchronized scans), so a plain SELECT gives the ranged read's order.
TEST_F(RangeScanTest, ReadOnlySessionsScanFromTheFirstBlock) {
  if (target_.table.empty()) return;
  auto session = ConnectSql(target_, SqlAccess::kReadOnly);
  ASSERT_TRUE(session.ok()) << session.status().message();
  auto setting = QueryAll(*session, "SELECT current_setting('synchronize_seqscans')", "test");
  ASSERT_TRUE(setting.ok()) << setting.status().message();
  EXPECT_EQ(static_cast<const arrow::StringArray&>(*(*setting)[0]->column(0)).GetString(0), "off");
}

// A range query that fails reaches the reader as its error, naming the source.
TEST_F(RangeScanTest, AFailedRangeIsTheReadersError) {
  if (target_.table.empty()) return;
  auto reader = Open(table_, {"1 / (i - 15000) > -1", nullptr}, {2, 4});
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  ASSERT_NE(*reader, nullptr);
  arrow::Status status;
  int64_t rows = 0;
  while (true) {
    std::shared_ptr<arrow::RecordBatch> batch;
    status = (*reader)->ReadNext(&batch);
    if (!status.ok() || batch == nullptr) break;
    rows += batch->num_rows();
  }
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.message().find("division by zero"), std::string::npos) << status.message();
  // The input source puts the name in front (as for the serial read's errors), so the message lacks it.
  EXPECT_EQ(status.message().find(target_.display), std::string::npos) << status.message();
  EXPECT_LT(rows, 15000);
}

}  // namespace
}  // namespace griffin::sql
