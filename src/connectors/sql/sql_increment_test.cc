#include "connectors/sql/sql_increment.h"

#include <arrow/builder.h>
#include <gtest/gtest.h>

#include "connectors/sql/sql_source.h"
#include "connectors/sql/sqlite_test_util.h"
#include "io/io_test_util.h"

namespace griffin::sql {
namespace {

using griffin::testing::TempDir;

void Exec(const std::string& file, const std::string& sql) { testing::ExecSqlite(file, sql); }

Result<int64_t> CountRows(const std::string& uri, const ReadOptions& options) {
  ASSIGN_OR_RETURN(auto source, OpenInput(uri, options, 0));
  int64_t rows = 0;
  for (;;) {
    ASSIGN_OR_RETURN(auto chunk, source->NextChunk());
    if (chunk == nullptr) return rows;
    ASSIGN_OR_RETURN(auto batch, chunk->Decode());
    rows += batch->num_rows;
  }
}

std::shared_ptr<arrow::Array> Int64(int64_t value) {
  arrow::Int64Builder builder;
  EXPECT_TRUE(builder.Append(value).ok());
  return builder.Finish().ValueOrDie();
}

TEST(SqlIncrementTest, WatermarksRoundTripTheirTypeAndValue) {
  auto encoded = EncodeWatermark(Int64(-42), "seq");
  ASSERT_TRUE(encoded.ok()) << encoded.status().message();
  EXPECT_EQ(encoded->text, "-42");
  auto decoded = DecodeWatermark(encoded->value, "ctx");
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_TRUE((*decoded)->Equals(*Int64(-42)));
  EXPECT_EQ(DecodeWatermark("not base64!", "ctx").status().code(), StatusCode::kInputError);
  arrow::BooleanBuilder flag;
  ASSERT_TRUE(flag.Append(true).ok());
  auto refused = EncodeWatermark(flag.Finish().ValueOrDie(), "done");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kUsageError);
  EXPECT_NE(refused.status().message().find("column 'done' arrives as bool"), std::string::npos);
}

TEST(SqlIncrementTest, TheConditionBindsItsBoundsPerDialect) {
  ReadOptions options;
  options.where = "region = 'eu'";
  options.incremental_column = "up\"dated";
  auto unbounded = RowCondition(SqlEngine::kPostgresql, options, "ctx");
  EXPECT_EQ(unbounded->sql, "(\"region\" = $1)");  // no watermark known: every row; 'eu' bound
  EXPECT_EQ(unbounded->params->num_columns(), 1);
  options.increment_bounded = true;
  options.increment_through = EncodeWatermark(Int64(9), "c")->value;
  auto first = RowCondition(SqlEngine::kSqlite, options, "ctx");
  EXPECT_EQ(first->sql, "(\"region\" = ?1) AND (\"up\"\"dated\" <= ?2 OR \"up\"\"dated\" IS NULL)");
  ASSERT_NE(first->params, nullptr);
  EXPECT_EQ(first->params->num_columns(), 2);  // the where's value first, then the bound
  options.increment_after = EncodeWatermark(Int64(3), "c")->value;
  auto next = RowCondition(SqlEngine::kPostgresql, options, "ctx");
  EXPECT_EQ(next->sql, "(\"region\" = $1) AND \"up\"\"dated\" > $2 AND \"up\"\"dated\" <= $3");
  EXPECT_EQ(next->params->num_columns(), 3);
  options.increment_through.clear();
  EXPECT_EQ(RowCondition(SqlEngine::kDuckdb, options, "ctx")->sql,
            "(\"region\" = $1) AND \"up\"\"dated\" > $2 AND 1 = 0");
}

// On a real SQLite file: the watermark of the rows past a bound, and the rows
// between two bounds; a text watermark holding SQL is a value.
TEST(SqlIncrementTest, ReadsTheRowsBetweenTwoWatermarksOfASqliteTable) {
  TempDir dir;
  const std::string file = dir.Path("app.db");
  Exec(file, "CREATE TABLE ev(id INTEGER, at TEXT, seq INTEGER);"
             "INSERT INTO ev VALUES (1, '2024-01-01', 10), (2, '2024-01-02', 20), (3, NULL, NULL),"
             " (4, '2025''; DROP TABLE ev; --', 30);");
  const std::string uri = "sqlite://" + file + "?table=ev";
  ReadOptions options;
  options.incremental_column = "seq";
  auto all = ReadSqlWatermark(uri, options);
  ASSERT_TRUE(all.ok()) << all.status().message();
  ASSERT_TRUE(all->has_value());
  EXPECT_EQ((*all)->text, "30");
  options.increment_bounded = true;
  options.increment_through = (*all)->value;
  EXPECT_EQ(*CountRows(uri, options), 4);  // the first run: NULLs too
  options.increment_after = EncodeWatermark(Int64(10), "seq")->value;
  auto past = ReadSqlWatermark(uri, options);
  EXPECT_EQ((*past)->text, "30");
  EXPECT_EQ(*CountRows(uri, options), 2);
  ReadOptions filtered = options;  // a where's bound values come first, the bounds after them
  filtered.where = "id <> 4 AND id >= 1";
  EXPECT_EQ(*CountRows(uri, filtered), 1);
  EXPECT_EQ((*ReadSqlWatermark(uri, filtered))->text, "20");
  options.increment_after = (*all)->value;
  EXPECT_FALSE(ReadSqlWatermark(uri, options)->has_value());
  options.increment_through.clear();
  EXPECT_EQ(*CountRows(uri, options), 0);

  ReadOptions text;
  text.incremental_column = "at";
  auto hostile = ReadSqlWatermark(uri, text);
  ASSERT_TRUE(hostile.ok()) << hostile.status().message();
  EXPECT_EQ((*hostile)->text, "2025'; DROP TABLE ev; --");
  text.increment_bounded = true;
  text.increment_after = EncodeWatermark(Int64(0), "at")->value;  // an integer below any text
  text.increment_through = (*hostile)->value;
  EXPECT_EQ(*CountRows(uri, text), 3);
  ReadOptions plain;
  EXPECT_EQ(*CountRows(uri, plain), 4);  // the table is whole
}

}  // namespace
}  // namespace griffin::sql
