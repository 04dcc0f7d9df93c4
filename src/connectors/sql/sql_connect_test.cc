#include "connectors/sql/sql_connect.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "io/io_test_util.h"

namespace griffin::sql {
namespace {

TEST(SqlConnectTest, ReadOnlyNeverCreatesADatabaseAndWriteDoes) {
  griffin::testing::TempDir dir;
  auto target = ParseSqlUri("sqlite://" + dir.Path("new.db") + "?table=t");
  ASSERT_TRUE(target.ok());
  auto read_only = ConnectSql(*target, SqlAccess::kReadOnly);
  ASSERT_FALSE(read_only.ok());
  EXPECT_EQ(read_only.status().code(), StatusCode::kInputError);
  EXPECT_NE(read_only.status().message().find("no such database file"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir.Path("new.db")));
  auto writable = ConnectSql(*target, SqlAccess::kWrite);
  ASSERT_TRUE(writable.ok()) << writable.status().message();
  auto created = AdbcStatementHandle::Open(*writable, "CREATE TABLE t(x INTEGER)", "ctx");
  ASSERT_TRUE(created.ok());
  EXPECT_TRUE((*created)->ExecuteUpdate("ctx").ok());
  EXPECT_TRUE(std::filesystem::exists(dir.Path("new.db")));
}

TEST(SqlConnectTest, AReadOnlyConnectionCannotWrite) {
  griffin::testing::TempDir dir;
  auto target = ParseSqlUri("sqlite://" + dir.Path("a.db") + "?table=t");
  ASSERT_TRUE(target.ok());
  {
    auto writable = ConnectSql(*target, SqlAccess::kWrite);
    ASSERT_TRUE(writable.ok());
    ASSERT_TRUE((*AdbcStatementHandle::Open(*writable, "CREATE TABLE t(x INTEGER)", "ctx"))->ExecuteUpdate("ctx").ok());
  }
  auto read_only = ConnectSql(*target, SqlAccess::kReadOnly);
  ASSERT_TRUE(read_only.ok()) << read_only.status().message();
  auto insert = AdbcStatementHandle::Open(*read_only, "INSERT INTO t VALUES (1)", "ctx");
  ASSERT_TRUE(insert.ok());
  Status inserted = (*insert)->ExecuteUpdate("ctx");
  ASSERT_FALSE(inserted.ok());
  EXPECT_NE(inserted.message().find("readonly"), std::string::npos) << inserted.message();
}

}  // namespace
}  // namespace griffin::sql
