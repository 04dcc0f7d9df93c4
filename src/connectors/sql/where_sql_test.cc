#include "connectors/sql/where_sql.h"

#include <gtest/gtest.h>

#include "connectors/sql/sql_uri.h"
#include "connectors/sql/sqlite_test_util.h"
#include "io/io_test_util.h"
#include "io/source_registry.h"

namespace griffin::sql {
namespace {

using griffin::testing::TempDir;

WhereSql Compiled(const std::string& where, const char* dialect, bool bind = true) {
  const SqlDialect& d = *FindSqlDialect(dialect);
  const std::optional<SqlEngine> engine = SqlEngineForScheme(d.name());
  auto compiled = CompileWhere(where, d, bind && engine ? BindingFor(*engine) : nullptr);
  EXPECT_TRUE(compiled.ok()) << compiled.status().message();
  return compiled.ok() ? *compiled : WhereSql{};
}

std::vector<std::string> Described(const WhereSql& where) {
  std::vector<std::string> out;
  for (const Literal& param : where.params) out.push_back(DescribeParam(param));
  return out;
}

TEST(WhereSql, IdentifiersQuotedAndEveryValueAPlaceholder) {
  const std::string where =
      "region = 'eu' AND (amount BETWEEN -1 AND 2.5 OR \"my col\" NOT IN ('a', 'b''c')) AND note IS NOT NULL "
      "AND NOT name LIKE 'x%' AND day >= DATE '2026-12-01' AND ok <> TRUE";
  WhereSql pg = Compiled(where, "postgresql");
  EXPECT_EQ(pg.sql,
            "((((((\"region\" = $1) AND ((\"amount\" BETWEEN $2 AND $3) OR (\"my col\" NOT IN ($4, $5)))) AND "
            "(\"note\" IS NOT NULL)) AND (NOT (\"name\" LIKE $6))) AND (\"day\" >= $7)) AND (\"ok\" <> $8))");
  EXPECT_EQ(Described(pg), (std::vector<std::string>{"'eu'", "-1", "2.5", "'a'", "'b''c'", "'x%'",
                                                     "DATE '2026-12-01'", "TRUE"}));
  EXPECT_EQ(Compiled("k IN (1, 2)", "sqlite").sql, "(\"k\" IN (?1, ?2))");
  EXPECT_EQ(Compiled("k IN (1, 2)", "duckdb").sql, "(\"k\" IN ($1, $2))");
  EXPECT_EQ(CompileWhere("k = 1", *FindSqlDialect("sqlite"), BindingFor(SqlEngine::kSqlite), 4)->sql, "(\"k\" = ?4)");
  EXPECT_EQ(Compiled("", "sqlite").sql, "");
}

TEST(WhereSql, WithoutPlaceholdersValuesAreSpelledByTheDialect) {
  WhereSql spelled = Compiled("s = 'it''s; DROP TABLE t' AND d = DATE '2026-01-02' AND b = FALSE AND n > 3",
                              "spark", false);
  EXPECT_TRUE(spelled.params.empty());
  EXPECT_EQ(spelled.sql, "((((`s` = 'it\\'s; DROP TABLE t') AND (`d` = DATE '2026-01-02')) AND (`b` = FALSE)) AND "
                         "(`n` > 3))");
}

TEST(WhereSql, TextOutsideTheGrammarIsAUsageError) {
  auto refused = CompileWhere("1=1; DROP TABLE t", *FindSqlDialect("sqlite"), BindingFor(SqlEngine::kSqlite));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kUsageError);
  EXPECT_EQ(refused.status().message(), "where: at offset 3: unexpected character ';'");
}

// On a real SQLite file through ADBC: every value kind binds and filters, and
// hostile text is a value that matches nothing.
TEST(WhereSql, BoundValuesFilterARealSqliteTable) {
  TempDir dir;
  const std::string file = dir.Path("app.db");
  testing::ExecSqlite(file,
                      "CREATE TABLE t(id INTEGER, amount REAL, region TEXT, ok BOOLEAN, day DATE);"
                      "INSERT INTO t VALUES (1, 2.5, 'eu', 1, '2026-12-01'), (2, -1, 'us', 0, '2026-11-30'),"
                      " (3, 7, 'eu', 1, NULL), (4, NULL, 'o''x', 0, '2026-12-02');"
                      "CREATE TABLE keep(x INTEGER); INSERT INTO keep VALUES (1);");
  auto rows = [&](const std::string& where) -> int64_t {
    ReadOptions options;
    options.where = where;
    auto source = OpenInput("sqlite://" + file + "?table=t", options, 0);
    EXPECT_TRUE(source.ok()) << where << ": " << source.status().message();
    if (!source.ok()) return -1;
    int64_t count = 0;
    for (;;) {
      auto chunk = (*source)->NextChunk();
      EXPECT_TRUE(chunk.ok()) << where << ": " << chunk.status().message();
      if (!chunk.ok() || *chunk == nullptr) return count;
      count += (*(*chunk)->Decode())->num_rows;
    }
  };
  EXPECT_EQ(rows("region = 'eu'"), 2);
  EXPECT_EQ(rows("amount BETWEEN -1 AND 2.5"), 2);
  EXPECT_EQ(rows("id IN (1, 4) AND NOT region = 'eu'"), 1);
  EXPECT_EQ(rows("ok = TRUE"), 2);
  EXPECT_EQ(rows("day >= DATE '2026-12-01'"), 2);
  EXPECT_EQ(rows("day IS NULL OR amount IS NULL"), 2);
  EXPECT_EQ(rows("region LIKE 'e%'"), 2);
  EXPECT_EQ(rows("region = 'o''x'"), 1);
  for (const char* hostile : {"region = '1''; DROP TABLE keep; --'", "region = 'eu'' OR ''1''=''1'",
                              "region IN ('x''); DELETE FROM keep; --')"}) {
    EXPECT_EQ(rows(hostile), 0) << hostile;
  }
  ReadOptions all;
  auto keep = OpenInput("sqlite://" + file + "?table=keep", all, 0);
  ASSERT_TRUE(keep.ok());
  EXPECT_EQ((*(*(*keep)->NextChunk())->Decode())->num_rows, 1);  // nothing was dropped or deleted
}

}  // namespace
}  // namespace griffin::sql
