#include "connectors/sql/sql_uri.h"

#include <gtest/gtest.h>

namespace griffin::sql {
namespace {

TEST(SqlUriTest, SqliteAndDuckdbNameAFileAndATable) {
  auto sqlite = ParseSqlUri("sqlite:///data/app.db?table=orders");
  ASSERT_TRUE(sqlite.ok()) << sqlite.status().message();
  EXPECT_EQ(sqlite->engine, SqlEngine::kSqlite);
  EXPECT_EQ(sqlite->file, "/data/app.db");
  EXPECT_EQ(sqlite->table, "orders");
  EXPECT_FALSE(sqlite->schema);
  auto relative = ParseSqlUri("sqlite://rel/a%20b.db?table=my%20t");
  ASSERT_TRUE(relative.ok());
  EXPECT_EQ(relative->file, "rel/a b.db");
  EXPECT_EQ(relative->table, "my t");
  auto duck = ParseSqlUri("DUCKDB:///x.duckdb?table=main.t");
  ASSERT_TRUE(duck.ok());
  EXPECT_EQ(duck->engine, SqlEngine::kDuckdb);
  EXPECT_EQ(duck->schema, "main");
  EXPECT_EQ(duck->table, "t");
  EXPECT_TRUE(ParseSqlUri("sqlite:///x.db")->table.empty());  // --query names what to read
}

TEST(SqlUriTest, PostgresqlKeepsLibpqParametersAndHidesThePassword) {
  auto pg = ParseSqlUri("postgres://ann:s3cret@db:5432/shop?sslmode=disable&table=sales.orders&connect_timeout=3");
  ASSERT_TRUE(pg.ok()) << pg.status().message();
  EXPECT_EQ(pg->engine, SqlEngine::kPostgresql);
  EXPECT_EQ(pg->connection_uri, "postgresql://ann:s3cret@db:5432/shop?sslmode=disable&connect_timeout=3");
  EXPECT_EQ(pg->schema, "sales");
  EXPECT_EQ(pg->table, "orders");
  EXPECT_EQ(pg->display, "postgres://ann:***@db:5432/shop?sslmode=disable&table=sales.orders&connect_timeout=3");
}

TEST(SqlUriTest, WrongUrisAreUsageErrors) {
  for (const char* uri : {"sqlite:///x.db?tabel=t", "sqlite:///x.db?table=", "sqlite://?table=t",
                          "duckdb:///x.duckdb?table=.t", "sqlite:///x.db?table=a%zz", "mysql://h/db?table=t"}) {
    auto parsed = ParseSqlUri(uri);
    ASSERT_FALSE(parsed.ok()) << uri;
    EXPECT_EQ(parsed.status().code(), StatusCode::kUsageError) << uri;
  }
  EXPECT_NE(ParseSqlUri("sqlite:///x.db?tabel=t").status().message().find("unknown parameter 'tabel'"),
            std::string::npos);
}

TEST(SqlUriTest, IdentifiersAreQuotedSoAnyTextIsOneName) {
  EXPECT_EQ(QuoteIdentifier("orders"), "\"orders\"");
  EXPECT_EQ(QuoteIdentifier("x\"; DROP TABLE y; --"), "\"x\"\"; DROP TABLE y; --\"");
  SqlTarget target;
  target.schema = "s\"";
  target.table = "t";
  EXPECT_EQ(QuotedTableName(target), "\"s\"\"\".\"t\"");
}

}  // namespace
}  // namespace griffin::sql
