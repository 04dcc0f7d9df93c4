#include "connectors/sql/table_output.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <arrow/builder.h>
#include <arrow/io/memory.h>
#include <arrow/ipc/writer.h>
#include <arrow/record_batch.h>

#include "io/io_test_util.h"

namespace griffin::sql {
namespace {

// Arrow IPC file bytes of quarantine rows: x, and _griffin_errors as the sinks write it.
std::string QuarantineIpc() {
  auto item = arrow::struct_({arrow::field("check", arrow::utf8()), arrow::field("message", arrow::utf8())});
  auto schema = arrow::schema({arrow::field("x", arrow::int64()),
                               arrow::field("_griffin_errors", arrow::list(arrow::field("element", item)))});
  arrow::Int64Builder x;
  EXPECT_TRUE(x.AppendValues({7, 8}).ok());
  auto checks = std::make_shared<arrow::StringBuilder>();
  auto messages = std::make_shared<arrow::StringBuilder>();
  auto items = std::make_shared<arrow::StructBuilder>(item, arrow::default_memory_pool(),
                                                      std::vector<std::shared_ptr<arrow::ArrayBuilder>>{checks, messages});
  arrow::ListBuilder errors(arrow::default_memory_pool(), items, arrow::list(arrow::field("element", item)));
  EXPECT_TRUE(errors.Append().ok());
  EXPECT_TRUE(items->Append().ok() && checks->Append("x.max").ok() && messages->Append("x \"7\" is\nbig").ok());
  EXPECT_TRUE(errors.Append().ok());
  EXPECT_TRUE(items->Append().ok() && checks->Append("a").ok() && messages->Append("b").ok());
  EXPECT_TRUE(items->Append().ok() && checks->Append("c").ok() && messages->Append("d").ok());
  auto batch = arrow::RecordBatch::Make(schema, 2, {x.Finish().ValueOrDie(), errors.Finish().ValueOrDie()});
  auto sink = arrow::io::BufferOutputStream::Create().ValueOrDie();
  auto writer = arrow::ipc::MakeFileWriter(sink, schema).ValueOrDie();
  EXPECT_TRUE(writer->WriteRecordBatch(*batch).ok());
  EXPECT_TRUE(writer->Close().ok());
  return sink->Finish().ValueOrDie()->ToString();
}

std::vector<std::string> Rows(const std::string& file, const std::string& sql) {
  sqlite3* db = nullptr;
  std::vector<std::string> rows;
  if (sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    sqlite3_close(db);  // a failed open still allocates the handle
    return {"<no database>"};
  }
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
    sqlite3_close(db);
    return {"<" + sql + " failed>"};
  }
  while (sqlite3_step(statement) == SQLITE_ROW) {
    std::string row;
    for (int column = 0; column < sqlite3_column_count(statement); ++column) {
      const auto* text = sqlite3_column_text(statement, column);
      row += (column ? "|" : "") + std::string(text ? reinterpret_cast<const char*>(text) : "<null>");
    }
    rows.push_back(row);
  }
  sqlite3_finalize(statement);
  sqlite3_close(db);
  return rows;
}

TEST(SqlTableOutputTest, CommitIngestsEveryRowWithErrorsAsJson) {
  griffin::testing::TempDir dir;
  const std::string db = dir.Path("dl.db");
  auto output = OpenSqlTableOutput("sqlite://" + db + "?table=bad%20rows");
  ASSERT_TRUE(output.ok()) << output.status().message();
  const std::string bytes = QuarantineIpc();
  ASSERT_TRUE((*output)->Write(bytes.substr(0, 10)).ok());
  ASSERT_TRUE((*output)->Write(bytes.substr(10)).ok());
  EXPECT_EQ(Rows(db, "SELECT 1"), std::vector<std::string>{"<no database>"});  // nothing before the commit
  auto committed = (*output)->Commit();
  ASSERT_TRUE(committed.ok()) << committed.status().message();
  EXPECT_EQ(committed->size, 2);
  EXPECT_EQ(Rows(db, "SELECT * FROM \"bad rows\""),
            (std::vector<std::string>{"7|[{\"check\":\"x.max\",\"message\":\"x \\\"7\\\" is\\u000abig\"}]",
                                      "8|[{\"check\":\"a\",\"message\":\"b\"},{\"check\":\"c\",\"message\":\"d\"}]"}));
  // A second run appends.
  auto again = OpenSqlTableOutput("sqlite://" + db + "?table=bad%20rows");
  ASSERT_TRUE((*again)->Write(bytes).ok());
  ASSERT_TRUE((*again)->Commit().ok());
  EXPECT_EQ(Rows(db, "SELECT COUNT(*) FROM \"bad rows\""), std::vector<std::string>{"4"});
}

TEST(SqlTableOutputTest, AbortWritesNothing) {
  griffin::testing::TempDir dir;
  const std::string db = dir.Path("dl.db");
  {
    auto output = OpenSqlTableOutput("sqlite://" + db + "?table=t");
    ASSERT_TRUE(output.ok());
    ASSERT_TRUE((*output)->Write(QuarantineIpc()).ok());
    (*output)->Abort();
  }
  {
    auto output = OpenSqlTableOutput("sqlite://" + db + "?table=t");
    ASSERT_TRUE((*output)->Write(QuarantineIpc()).ok());
  }  // destroyed without a commit
  EXPECT_FALSE(std::filesystem::exists(db));
}

// A table whose columns do not fit: the ingest fails, and no row is added.
TEST(SqlTableOutputTest, AFailedIngestLeavesNoPartialRows) {
  griffin::testing::TempDir dir;
  const std::string db = dir.Path("dl.db");
  sqlite3* handle = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &handle), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(handle, "CREATE TABLE t(other TEXT NOT NULL); INSERT INTO t VALUES ('kept');", nullptr,
                         nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(handle);
  auto output = OpenSqlTableOutput("sqlite://" + db + "?table=t");
  ASSERT_TRUE((*output)->Write(QuarantineIpc()).ok());
  auto committed = (*output)->Commit();
  ASSERT_FALSE(committed.ok());
  EXPECT_EQ(committed.status().code(), StatusCode::kInputError);
  EXPECT_EQ(Rows(db, "SELECT * FROM t"), std::vector<std::string>{"kept"});
}

TEST(SqlTableOutputTest, AnOutputNamesItsTable) {
  auto output = OpenSqlTableOutput("sqlite:///tmp/x.db");
  ASSERT_FALSE(output.ok());
  EXPECT_EQ(output.status().code(), StatusCode::kUsageError);
}

}  // namespace
}  // namespace griffin::sql
