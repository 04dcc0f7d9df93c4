#include "connectors/sql/sql_source.h"

#include <arrow/array/array_primitive.h>
#include <gtest/gtest.h>

#include "connectors/sql/sqlite_test_util.h"
#include "io/io_test_util.h"
#include "io/source_registry.h"
#include "store/store_test_util.h"

namespace griffin::sql {
namespace {

using griffin::testing::TempDir;

void Exec(const std::string& file, const std::string& sql) { testing::ExecSqlite(file, sql); }

struct Read {
  std::vector<std::string> columns;
  int64_t rows = 0;
};

Result<Read> ReadUri(const std::string& uri, const ReadOptions& options) {
  ASSIGN_OR_RETURN(auto source, OpenInput(uri, options, 0));
  Read read;
  for (;;) {
    ASSIGN_OR_RETURN(auto chunk, source->NextChunk());
    if (chunk == nullptr) return read;
    ASSIGN_OR_RETURN(auto batch, chunk->Decode());
    read.columns.clear();
    for (const BatchColumn& column : batch->columns) read.columns.push_back(column.name);
    read.rows += batch->num_rows;
  }
}

class SqliteSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    file_ = dir_.Path("app.db");
    Exec(file_, "CREATE TABLE orders(id INTEGER, amount REAL, region TEXT, note TEXT);"
                "INSERT INTO orders VALUES (1, 2.5, 'eu', 'a'), (2, -1, 'us', NULL), (3, 7, 'eu', 'c');"
                "CREATE TABLE keep(x INTEGER); INSERT INTO keep VALUES (1);");
  }
  std::string Uri(const std::string& table) { return "sqlite://" + file_ + "?table=" + table; }
  TempDir dir_;
  std::string file_;
};

TEST_F(SqliteSourceTest, ReadsOnlyTheRuleColumnsInTableOrder) {
  ReadOptions options;
  options.json_columns = {"region", "id", "not_in_table"};
  auto read = ReadUri(Uri("orders"), options);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read->columns, (std::vector<std::string>{"id", "region"}));
  EXPECT_EQ(read->rows, 3);
  options.project_columns = false;  // outputs keep whole rows
  EXPECT_EQ(ReadUri(Uri("orders"), options)->columns.size(), 4u);
}

TEST_F(SqliteSourceTest, WhereAndQueryRunInTheDatabase) {
  ReadOptions options;
  options.where = "region = 'eu'";
  EXPECT_EQ(ReadUri(Uri("orders"), options)->rows, 2);
  ReadOptions query;
  query.query = "SELECT id, amount * 2 AS doubled FROM orders WHERE id > 1";
  auto read = ReadUri("sqlite://" + file_, query);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read->columns, (std::vector<std::string>{"id", "doubled"}));
  EXPECT_EQ(read->rows, 2);
}

TEST_F(SqliteSourceTest, TableAndQueryAreOneOrTheOther) {
  ReadOptions options;
  EXPECT_EQ(ReadUri("sqlite://" + file_, options).status().code(), StatusCode::kUsageError);
  options.query = "SELECT 1";
  EXPECT_EQ(ReadUri(Uri("orders"), options).status().code(), StatusCode::kUsageError);
}

TEST_F(SqliteSourceTest, MissingFileTableOrBadSqlAreErrors) {
  auto missing_table = ReadUri(Uri("nope"), ReadOptions());
  ASSERT_FALSE(missing_table.ok());
  EXPECT_EQ(missing_table.status().code(), StatusCode::kInputError);
  EXPECT_NE(missing_table.status().message().find("no such table: nope"), std::string::npos);
  auto missing_file = ReadUri("sqlite://" + dir_.Path("none.db") + "?table=t", ReadOptions());
  ASSERT_FALSE(missing_file.ok());
  EXPECT_NE(missing_file.status().message().find("no such database file"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir_.Path("none.db")));  // never created
  ReadOptions bad_where;
  bad_where.where = "region = = 1";  // outside the predicate language: refused before any SQL
  EXPECT_EQ(ReadUri(Uri("orders"), bad_where).status().code(), StatusCode::kUsageError);
  ReadOptions wrong_column;
  wrong_column.where = "nope = 1";  // SQLite would take "nope" for a string: Griffin looks first
  auto wrong = ReadUri(Uri("orders"), wrong_column);
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().code(), StatusCode::kInputError);
  EXPECT_EQ(wrong.status().message(), "sqlite://" + file_ + "?table=orders: where names column 'nope', which the "
                                      "source does not have (it has: id, amount, region, note)");
  wrong_column.where = "REGION = 'eu'";  // SQLite names are not case-sensitive
  EXPECT_EQ(ReadUri(Uri("orders"), wrong_column)->rows, 2);
}

// A hostile table name is one quoted name that does not exist: nothing runs.
TEST_F(SqliteSourceTest, HostileTableNameExecutesNothing) {
  auto hostile = ReadUri(Uri("keep%22; DROP TABLE keep; --"), ReadOptions());
  ASSERT_FALSE(hostile.ok());
  EXPECT_EQ(hostile.status().code(), StatusCode::kInputError);
  EXPECT_EQ(ReadUri(Uri("keep"), ReadOptions())->rows, 1);
}

// A query that writes fails (SQLite opens the file mode=ro) and changes nothing.
TEST_F(SqliteSourceTest, AQueryThatWritesFailsAndWritesNothing) {
  ReadOptions options;
  options.query = "DELETE FROM keep RETURNING x";
  EXPECT_FALSE(ReadUri("sqlite://" + file_, options).ok());
  EXPECT_EQ(ReadUri(Uri("keep"), ReadOptions())->rows, 1);
}

// SQLite types columns from their values: one without any (an empty table,
// or only NULLs in a batch) is Arrow's null type, never a made-up int64.
TEST_F(SqliteSourceTest, ColumnsWithoutValuesAreNullTyped) {
  Exec(file_, "CREATE TABLE empty(s TEXT); CREATE TABLE nulls(s TEXT, n INTEGER); INSERT INTO nulls VALUES (NULL, 1);");
  for (const char* table : {"empty", "nulls"}) {
    auto source = OpenInput(Uri(table), ReadOptions(), 0);
    ASSERT_TRUE(source.ok()) << source.status().message();
    auto chunk = (*source)->NextChunk();
    ASSERT_TRUE(chunk.ok() && *chunk != nullptr);
    auto batch = (*chunk)->Decode();
    ASSERT_TRUE(batch.ok()) << batch.status().message();
    EXPECT_EQ((*batch)->columns[0].array->type_id(), arrow::Type::NA) << table;
    if (std::string(table) == "nulls") {
      EXPECT_EQ((*batch)->columns[1].array->type_id(), arrow::Type::INT64);
    }
  }
}

// PostgreSQL rows come in driver batches of about kPostgresqlBatchBytes
// (1 MiB), not the driver's 16 MiB: 40,000 rows of ~200 bytes (8 MB) arrive
// as several batches, each under 65,536 rows (the engine's slice), every
// row once, in order.
TEST(PostgresqlSourceTest, RowsComeInBatchesOfAboutOneMebibyte) {
  bool skip = false;
  const std::string uri = store_test::PostgresTestUri(&skip);
  if (skip) {
    GTEST_SKIP() << "GRIFFIN_NO_PG=1";
  }
  ReadOptions options;
  options.query = "SELECT i, repeat('x', 200) AS s FROM generate_series(1::bigint, 40000) AS i";
  auto source = OpenInput(uri, options, 0);
  ASSERT_TRUE(source.ok()) << source.status().message();
  int64_t rows = 0, batches = 0, largest = 0;
  griffin::testing::ForEachBatch(**source, [&](const Batch& batch) {
    const auto& ids = static_cast<const arrow::Int64Array&>(*batch.columns[0].array);
    for (int64_t row = 0; row < ids.length(); ++row) ASSERT_EQ(ids.Value(row), rows + row + 1);
    rows += batch.num_rows;
    largest = std::max<int64_t>(largest, batch.num_rows);
    ++batches;
  });
  EXPECT_EQ(rows, 40000);
  EXPECT_GE(batches, 4);          // 8 MB in ~1 MiB batches (16 MiB would be one)
  EXPECT_LE(largest, 2 * 5242);   // ~1 MiB / 200 bytes, with the hint's slack
}

TEST(BuiltinSourcesTest, TheDatabaseSchemesAreRegistered) {
  const std::vector<std::string> schemes = RegisteredSourceSchemes();
  for (const char* scheme : {"duckdb", "file", "postgres", "postgresql", "sqlite"})
    EXPECT_NE(std::find(schemes.begin(), schemes.end(), scheme), schemes.end()) << scheme;
}

}  // namespace
}  // namespace griffin::sql
