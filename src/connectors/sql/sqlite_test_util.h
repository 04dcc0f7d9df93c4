// For the SQL connector tests: runs SQL on a SQLite file with the sqlite3
// library directly (fixtures the code under test then reads through ADBC).
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>

namespace griffin::sql::testing {

inline void ExecSqlite(const std::string& file, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK) << (error ? error : "");
  sqlite3_free(error);
  sqlite3_close(db);
}

}  // namespace griffin::sql::testing
