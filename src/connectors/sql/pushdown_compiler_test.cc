#include "connectors/sql/pushdown_compiler.h"

#include <gtest/gtest.h>

#include "rules/rule_loader.h"

namespace griffin::sql {
namespace {

std::shared_ptr<const Plan> PlanOf(const std::string& body) {
  auto rules = LoadRuleText("griffin: 1\ndataset: d\n" + body, "r.yaml");
  EXPECT_TRUE(rules.ok()) << rules.status().message();
  auto plan = Plan::Compile(*rules, 0);
  EXPECT_TRUE(plan.ok());
  return *plan;
}

PushdownQuery Compile(const Plan& plan, const char* dialect, PushdownSource source) {
  auto query = CompilePushdown(plan, *FindSqlDialect(dialect), source, 10);
  EXPECT_TRUE(query.ok()) << query.status().message();
  return *query;
}

TEST(PushdownCompiler, OneAggregateWithEveryPushedCheck) {
  auto plan = PlanOf("columns:\n  id: {type: int64, not_null: true, min: 0}\ntable:\n  - row_count: {min: 1}\n");
  PushdownQuery query = Compile(*plan, "postgresql", {"\"t\"", "", std::nullopt});
  EXPECT_EQ(query.aggregate_sql,
            "SELECT COUNT(*),\n       COUNT(*),\n       0,\n       COUNT(*),\n"
            "       COUNT(CASE WHEN \"id\" IS NULL THEN 1 END),\n       COUNT(\"id\"),\n"
            "       COUNT(CASE WHEN \"id\" < 0 THEN 1 END),\n"
            "       COUNT(CASE WHEN (\"id\" IS NULL) OR (\"id\" < 0) THEN 1 END)\nFROM \"t\"");
  EXPECT_TRUE(query.bad_rows_in_aggregate);
  EXPECT_FALSE(query.any_fallback());
  // PostgreSQL numbers rows as they stream: the sample stops at its first 11 violations, then sorts them.
  EXPECT_EQ(query.placements[2].sample_sql,
            "SELECT * FROM (SELECT _griffin_row, \"id\"\nFROM (SELECT \"id\", ROW_NUMBER() OVER () - 1 AS _griffin_row "
            "FROM \"t\") AS _griffin_base\nWHERE \"id\" < 0\nLIMIT 11) AS _griffin_first\nORDER BY _griffin_row");
  // DuckDB's parallel executor may hand rows on out of order: the sample sorts every violation.
  EXPECT_EQ(Compile(*plan, "duckdb", {"\"t\"", "", std::nullopt}).placements[2].sample_sql,
            "SELECT _griffin_row, \"id\"\nFROM (SELECT \"id\", ROW_NUMBER() OVER () - 1 AS _griffin_row FROM \"t\") "
            "AS _griffin_base\nWHERE \"id\" < 0\nORDER BY _griffin_row\nLIMIT 11");
}

TEST(PushdownCompiler, TextReadAsNumbersRunsInTheEngine) {
  auto plan = PlanOf("columns:\n  n: {type: int64, min: 0}\n  s: {type: string, not_null: true}\n");
  PushdownSource source{"\"t\"", "x > 1", std::map<std::string, StoredType>{{"n", StoredType::kText},
                                                                             {"s", StoredType::kText}}};
  PushdownQuery query = Compile(*plan, "duckdb", source);
  ASSERT_EQ(query.placements.size(), 4u);  // n.type n.min s.type s.not_null
  EXPECT_FALSE(query.placements[0].pushed);
  EXPECT_NE(query.placements[1].reason.find("stored as text"), std::string::npos);
  EXPECT_TRUE(query.placements[3].pushed);
  EXPECT_FALSE(query.bad_rows_in_aggregate);
  EXPECT_EQ(query.fallback_columns, std::vector<std::string>{"n"});
  EXPECT_EQ(query.fallback_sql,
            "SELECT \"n\", CASE WHEN (\"s\" IS NULL) THEN 1 ELSE 0 END AS _griffin_pushed_bad\n"
            "FROM \"t\" WHERE (x > 1)");
}

TEST(PushdownCompiler, RegexPushesDownOnlyWhereRe2Is) {
  auto plan = PlanOf("columns:\n  s: {type: string, regex: '^a.b$'}\n");
  EXPECT_TRUE(Compile(*plan, "duckdb", {"t", "", std::nullopt}).placements[1].pushed);
  for (const char* dialect : {"postgresql", "sqlite", "spark"}) {
    PushdownQuery query = Compile(*plan, dialect, {"t", "", std::nullopt});
    EXPECT_FALSE(query.placements[1].pushed) << dialect;
    EXPECT_NE(query.placements[1].reason.find("no RE2"), std::string::npos);
  }
}

TEST(PushdownCompiler, MissingColumnIsTheEnginesSchemaError) {
  auto plan = PlanOf("columns:\n  gone: {type: string, not_null: true}\n");
  PushdownQuery query = Compile(*plan, "sqlite", {"t", "", std::map<std::string, StoredType>{}});
  EXPECT_EQ(query.placements[1].reason, "column 'gone' is not in the source");
  EXPECT_EQ(query.fallback_sql, "SELECT 1 AS _griffin_none\nFROM t");
}

TEST(PushdownCompiler, TheWholeScanReadsEveryRuleColumnTheSourceHas) {
  auto plan = PlanOf("columns:\n  id: {type: int64, min: 0}\n  s: {type: string, regex: 'a'}\n  gone: {type: int64}\n");
  std::map<std::string, StoredType> stored = {{"id", StoredType::kInteger}, {"s", StoredType::kText}};
  EXPECT_EQ(Compile(*plan, "sqlite", {"t", "", stored}).scan_sql, "SELECT \"id\", \"s\"\nFROM t");
  auto pushed = PlanOf("columns:\n  id: {type: int64, min: 0}\n");
  EXPECT_EQ(Compile(*pushed, "sqlite", {"t", "", stored}).scan_sql, "");  // every check pushed: no scan planned
  const std::string script = RenderPushdownScript(*plan, Compile(*plan, "sqlite", {"t", "", stored}),
                                                  *FindSqlDialect("sqlite"));
  EXPECT_NE(script.find("the whole suite runs in one scan of these rows"), std::string::npos) << script;
}

TEST(PushdownCompiler, ScriptNamesWhereEachCheckRuns) {
  auto plan = PlanOf("columns:\n  s: {type: string, regex: 'a'}\n");
  PushdownQuery query = Compile(*plan, "sqlite", {DialectTableName(*FindSqlDialect("sqlite"), "x; DROP TABLE y"), "",
                                                  std::nullopt});
  const std::string script = RenderPushdownScript(*plan, query, *FindSqlDialect("sqlite"));
  EXPECT_NE(script.find("-- s.regex: in the engine (scan), sqlite has no RE2 regular expressions\n"), std::string::npos);
  EXPECT_NE(script.find("FROM \"x; DROP TABLE y\""), std::string::npos);
}

TEST(PushdownCompiler, SparkRowIdsAreMonotonicallyIncreasingIds) {
  auto plan = PlanOf("columns:\n  id: {type: int64, min: 0}\n");
  PushdownQuery query = Compile(*plan, "spark", {"`v`", "", std::nullopt});
  EXPECT_NE(query.placements[1].sample_sql.find("monotonically_increasing_id() AS _griffin_row FROM `v`"),
            std::string::npos) << query.placements[1].sample_sql;
  EXPECT_EQ(query.placements[1].sample_sql.find("ROW_NUMBER"), std::string::npos);
}

TEST(PushdownCompiler, WindowlessFallbackRunsErrorUniquesInTheEngine) {
  auto plan = PlanOf("columns:\n  id: {type: int64, unique: true}\n  k: {type: int64}\n"
                     "  s: {type: string, regex: '^a'}\nrows:\n  - name: k_unique\n    unique: [k]\n"
                     "    severity: warn\n");
  PushdownSource source{"`v`", "", std::nullopt};
  PushdownQuery windows = Compile(*plan, "spark", source);
  EXPECT_TRUE(windows.fallback_uses_windows);
  EXPECT_TRUE(windows.placements[1].pushed);  // id.unique
  source.windowless_fallback = true;
  PushdownQuery query = Compile(*plan, "spark", source);
  EXPECT_FALSE(query.fallback_uses_windows);
  EXPECT_FALSE(query.placements[1].pushed);
  EXPECT_NE(query.placements[1].reason.find("union"), std::string::npos);
  EXPECT_EQ(plan->checks()[5].name, "k_unique");
  EXPECT_TRUE(query.placements[5].pushed);  // a warning: no bad rows, no window in the fallback
  EXPECT_EQ(query.fallback_sql.find("OVER"), std::string::npos) << query.fallback_sql;
  // nothing falls back: the windows stay in the aggregate
  auto pushed = PlanOf("columns:\n  id: {type: int64, unique: true}\n");
  EXPECT_TRUE(Compile(*pushed, "spark", source).placements[1].pushed);
}

}  // namespace
}  // namespace griffin::sql
