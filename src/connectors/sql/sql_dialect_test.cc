#include "connectors/sql/sql_dialect.h"

#include <limits>

#include <gtest/gtest.h>

namespace griffin::sql {
namespace {

TEST(SqlDialect, FindsEachDialectByName) {
  for (const char* name : {"postgresql", "sqlite", "duckdb", "spark"}) {
    ASSERT_NE(FindSqlDialect(name), nullptr) << name;
    EXPECT_STREQ(FindSqlDialect(name)->name(), name);
  }
  EXPECT_EQ(FindSqlDialect("postgres"), FindSqlDialect("postgresql"));
  EXPECT_EQ(FindSqlDialect("mysql"), nullptr);
}

TEST(SqlDialect, AHostileNameIsOneIdentifier) {
  EXPECT_EQ(FindSqlDialect("postgresql")->QuoteIdentifier("x\"; DROP TABLE y; --"), "\"x\"\"; DROP TABLE y; --\"");
  EXPECT_EQ(FindSqlDialect("spark")->QuoteIdentifier("x`; DROP TABLE y"), "`x``; DROP TABLE y`");
}

TEST(SqlDialect, StringLiteralsEscapeTheirQuotes) {
  EXPECT_EQ(*FindSqlDialect("sqlite")->StringLiteral("it's \\n"), "'it''s \\n'");
  EXPECT_EQ(*FindSqlDialect("spark")->StringLiteral("it's \\n"), "'it\\'s \\\\n'");
  EXPECT_FALSE(FindSqlDialect("postgresql")->StringLiteral(std::string("a\0b", 3)).has_value());
  // PostgreSQL: an escape string when there is a backslash, whatever standard_conforming_strings says.
  EXPECT_EQ(*FindSqlDialect("postgresql")->StringLiteral("it's"), "'it''s'");
  EXPECT_EQ(*FindSqlDialect("postgresql")->StringLiteral("a\\'b"), "E'a\\\\''b'");
}

TEST(SqlDialect, DoubleLiteralsReadBackExactly) {
  EXPECT_EQ(*FindSqlDialect("postgresql")->DoubleLiteral(0.1), "'0.1'::float8");
  EXPECT_EQ(*FindSqlDialect("duckdb")->DoubleLiteral(1.0 / 3), "CAST('0.3333333333333333' AS DOUBLE)");
  EXPECT_EQ(*FindSqlDialect("sqlite")->DoubleLiteral(5), "5.0");
  EXPECT_EQ(*FindSqlDialect("sqlite")->DoubleLiteral(-std::numeric_limits<double>::infinity()), "-9e999");
  // SQLite stores NaN as NULL: no literal, so a check that needs one runs in the engine.
  EXPECT_FALSE(FindSqlDialect("sqlite")->DoubleLiteral(std::numeric_limits<double>::quiet_NaN()).has_value());
  EXPECT_EQ(FindSqlDialect("sqlite")->IsNan("x"), "");
}

TEST(SqlDialect, OnlyDuckdbHasRe2) {
  EXPECT_EQ(*FindSqlDialect("duckdb")->RegexFullMatch("\"c\"", "^a+$"), "regexp_full_match(\"c\", '^a+$')");
  for (const char* name : {"postgresql", "sqlite", "spark"}) {
    EXPECT_FALSE(FindSqlDialect(name)->RegexFullMatch("c", "a").has_value()) << name;
    EXPECT_FALSE(FindSqlDialect(name)->RegexContains("c", "a").has_value()) << name;
  }
}

TEST(SqlDialect, DistinctTuplesSkipNulls) {
  EXPECT_EQ(*FindSqlDialect("spark")->CountDistinctTuples({"a", "b"}), "COUNT(DISTINCT a, b)");
  EXPECT_EQ(*FindSqlDialect("postgresql")->CountDistinctTuples({"a", "b"}),
            "COUNT(DISTINCT CASE WHEN a IS NOT NULL AND b IS NOT NULL THEN ROW(a, b) END)");
  EXPECT_FALSE(FindSqlDialect("sqlite")->CountDistinctTuples({"a", "b"}).has_value());
}

}  // namespace
}  // namespace griffin::sql
