#include "connectors/sql/sql_catalogue.h"

#include <gtest/gtest.h>

#include "connectors/sql/sqlite_test_util.h"
#include "io/io_test_util.h"

namespace griffin::sql {
namespace {

using griffin::testing::TempDir;

void Exec(const std::string& file, const std::string& sql) { testing::ExecSqlite(file, sql); }

TEST(SqlCatalogueTest, TheSnapshotAndItsVersion) {
  const TableSchema schema = MakeTableSchema({{"id", "INTEGER"}, {"n\"ame", "TEXT"}});
  EXPECT_EQ(schema.json, "[{\"name\": \"id\", \"type\": \"INTEGER\"}, {\"name\": \"n\\\"ame\", \"type\": \"TEXT\"}]");
  EXPECT_EQ(schema.version.size(), 16u);
  EXPECT_EQ(MakeTableSchema({{"id", "INTEGER"}, {"n\"ame", "TEXT"}}).version, schema.version);
  EXPECT_NE(MakeTableSchema({{"id", "TEXT"}, {"n\"ame", "TEXT"}}).version, schema.version);
}

TEST(SqlCatalogueTest, ASqliteTableAsItsCatalogueListsIt) {
  TempDir dir;
  const std::string file = dir.Path("app.db");
  Exec(file, "CREATE TABLE t(id INTEGER NOT NULL, label TEXT); CREATE TABLE \"x; DROP TABLE t\"(a REAL);");
  auto target = ParseSqlUri("sqlite://" + file + "?table=t");
  ASSERT_TRUE(target.ok());
  auto schema = ReadTableSchema(*target);
  ASSERT_TRUE(schema.ok()) << schema.status().message();
  ASSERT_TRUE(schema->has_value());
  EXPECT_EQ((*schema)->json, "[{\"name\": \"id\", \"type\": \"INTEGER\"}, {\"name\": \"label\", \"type\": \"TEXT\"}]");
  // A name is a bound value: the table called "x; DROP TABLE t" is read, t stays.
  auto hostile = ReadTableSchema(*ParseSqlUri("sqlite://" + file + "?table=x%3B%20DROP%20TABLE%20t"));
  ASSERT_TRUE(hostile.ok()) << hostile.status().message();
  EXPECT_EQ((*hostile)->json, "[{\"name\": \"a\", \"type\": \"REAL\"}]");
  EXPECT_TRUE(ReadTableSchema(*target)->has_value());
  EXPECT_FALSE(ReadTableSchema(*ParseSqlUri("sqlite://" + file + "?table=nope"))->has_value());
  Exec(file, "ALTER TABLE t ADD COLUMN z INTEGER");
  EXPECT_NE(ReadTableSchema(*target)->value().version, (*schema)->version);
}

}  // namespace
}  // namespace griffin::sql
