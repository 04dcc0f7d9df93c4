// The SQLite backend: file and folder creation, connection settings, URI
// dispatch, and its bad inputs (each a one-line StoreError naming the path).
#include "store/sqlite_store.h"

#include <gtest/gtest.h>

#include <fstream>

#include "store/store_test_util.h"

namespace griffin::store_test {
namespace {

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

TEST(SqliteStoreTest, CreatesTheFileAndItsFoldersInWalMode) {
  TempDir dir;
  std::string path = dir.path() + "/a/b/griffin.db";
  auto store = OpenRunStore(path);
  ASSERT_TRUE(store.ok()) << store.status().message();
  EXPECT_TRUE(std::filesystem::is_regular_file(path));
  EXPECT_EQ((*store)->Describe(), "sqlite:" + path);
  auto conn = ConnectSqlite(path);
  ASSERT_TRUE(conn.ok());
  auto mode = (*conn)->Query("PRAGMA journal_mode");
  ASSERT_TRUE(mode.ok());
  EXPECT_EQ((*mode)[0][0], "wal");
  auto fk = (*conn)->Query("PRAGMA foreign_keys");
  ASSERT_TRUE(fk.ok());
  EXPECT_EQ((*fk)[0][0], "1");
  auto timeout = (*conn)->Query("PRAGMA busy_timeout");
  ASSERT_TRUE(timeout.ok());
  EXPECT_EQ((*timeout)[0][0], "10000");
}

TEST(SqliteStoreTest, OpenRunStoreDispatchesOnTheUri) {
  TempDir dir;
  for (std::string name : {"x.db", "x.sqlite", "x.sqlite3"}) {
    auto store = OpenRunStore(dir.path() + "/" + name);
    ASSERT_TRUE(store.ok()) << name << ": " << store.status().message();
    EXPECT_EQ((*store)->Describe(), "sqlite:" + dir.path() + "/" + name);
  }
  auto prefixed = OpenRunStore("sqlite:" + dir.path() + "/noext");
  ASSERT_TRUE(prefixed.ok()) << prefixed.status().message();
  EXPECT_TRUE(std::filesystem::is_regular_file(dir.path() + "/noext"));

  auto unknown = OpenRunStore(dir.path() + "/store.txt");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), StatusCode::kUsageError);
  EXPECT_EQ(unknown.status().message(),
            "--store " + dir.path() +
                "/store.txt: expected a .db, .sqlite or .sqlite3 path, sqlite:PATH, or a"
                " postgresql:// URI");
  EXPECT_EQ(DefaultStoreUri(), ".griffin/griffin.db");
}

TEST(SqliteStoreTest, CorruptFileIsAOneLineStoreError) {
  TempDir dir;
  std::string path = dir.path() + "/corrupt.db";
  WriteFile(path, std::string(8192, 'x'));
  auto store = OpenRunStore(path);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kStoreError);
  EXPECT_EQ(store.status().message(), "store " + path + ": file is not a database");
}

TEST(SqliteStoreTest, PathUnderARegularFileIsAOneLineStoreError) {
  // Tests may run as root, so permissions cannot make a path unwritable; a
  // regular file where a folder must be can.
  TempDir dir;
  WriteFile(dir.path() + "/plain", "not a folder");
  std::string path = dir.path() + "/plain/sub/griffin.db";
  auto store = OpenRunStore(path);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kStoreError);
  EXPECT_EQ(store.status().message(), "store " + path + ": cannot create folder " + dir.path() +
                                          "/plain/sub: Not a directory");

  std::string direct = dir.path() + "/plain/griffin.db";  // the folder is the file itself
  auto store2 = OpenRunStore(direct);
  ASSERT_FALSE(store2.ok());
  EXPECT_EQ(store2.status().code(), StatusCode::kStoreError);
  EXPECT_EQ(store2.status().message().rfind("store " + direct + ": ", 0), 0u)
      << store2.status().message();
  EXPECT_EQ(store2.status().message().find('\n'), std::string::npos);
}

TEST(SqliteStoreTest, AFolderIsNotADatabase) {
  TempDir dir;
  std::filesystem::create_directory(dir.path() + "/d.db");
  auto store = OpenRunStore(dir.path() + "/d.db");
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().message(),
            "store " + dir.path() + "/d.db: is a folder, not a database file");
}

TEST(SqliteStoreTest, SqlErrorsAreOneLineAndNameThePath) {
  TempDir dir;
  auto conn = ConnectSqlite(dir.path() + "/e.db");
  ASSERT_TRUE(conn.ok());
  auto bad = (*conn)->Query("SELECT * FROM no_such_table");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "store " + dir.path() + "/e.db: no such table: no_such_table");
}

TEST(SqliteStoreTest, ParametersBindEveryType) {
  TempDir dir;
  auto conn = ConnectSqlite(dir.path() + "/p.db");
  ASSERT_TRUE(conn.ok());
  // $2 before $1: numbered parameters bind by number, not by position.
  auto rows = (*conn)->Query("SELECT $2, $1, $3, $4, $5, typeof($4)",
                             {SqlParam(int64_t{-7}), SqlParam(std::string("it's")),
                              SqlParam(0.1), SqlParam(true), SqlParam(std::monostate{})});
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ((*rows)[0][0], "it's");
  EXPECT_EQ((*rows)[0][1], "-7");
  EXPECT_EQ(ParseDouble((*rows)[0][2]), 0.1);
  EXPECT_EQ((*rows)[0][3], "1");
  EXPECT_EQ((*rows)[0][4], std::nullopt);
  EXPECT_EQ((*rows)[0][5], "integer");
}

}  // namespace
}  // namespace griffin::store_test
