#include "connectors/sql/stored_types.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <arrow/util/key_value_metadata.h>

#include "connectors/sql/sql_connect.h"
#include "io/io_test_util.h"
#include "rules/rule_loader.h"

namespace griffin::sql {
namespace {

std::shared_ptr<arrow::Field> PgField(std::shared_ptr<arrow::DataType> type, const std::string& pg_type) {
  return arrow::field("c", std::move(type), arrow::key_value_metadata({"POSTGRESQL:type"}, {pg_type}));
}

TEST(StoredTypes, ArrowTypesAndPostgresqlTypeNames) {
  EXPECT_EQ(StoredTypeOfField(*arrow::field("c", arrow::utf8())), StoredType::kText);  // DuckDB VARCHAR
  EXPECT_EQ(StoredTypeOfField(*PgField(arrow::utf8(), "text")), StoredType::kText);
  EXPECT_EQ(StoredTypeOfField(*PgField(arrow::utf8(), "varchar")), StoredType::kText);
  EXPECT_EQ(StoredTypeOfField(*PgField(arrow::utf8(), "bpchar")), StoredType::kOther);  // padded char(n)
  EXPECT_EQ(StoredTypeOfField(*PgField(arrow::utf8(), "mood")), StoredType::kOther);    // an enum
  EXPECT_EQ(StoredTypeOfField(*arrow::field("c", arrow::int32())), StoredType::kInteger);
  EXPECT_EQ(StoredTypeOfField(*arrow::field("c", arrow::uint64())), StoredType::kOther);
  EXPECT_EQ(StoredTypeOfField(*arrow::field("c", arrow::float64())), StoredType::kDouble);
  EXPECT_EQ(StoredTypeOfField(*arrow::field("c", arrow::float32())), StoredType::kOther);
  EXPECT_EQ(StoredTypeOfField(*arrow::field("c", arrow::decimal128(12, 2))), StoredType::kOther);  // text to the engine
  EXPECT_EQ(StoredTypeOfField(*arrow::field("c", arrow::date32())), StoredType::kDate);
  EXPECT_EQ(StoredTypeOfField(*arrow::field("c", arrow::boolean())), StoredType::kBool);
}

TEST(StoredTypes, SqliteColumnsAreTypedByTheirValues) {
  griffin::testing::TempDir dir;
  const std::string file = dir.Path("a.db");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db,
                         "CREATE TABLE t(i INTEGER, r REAL, s TEXT, mixed, empty TEXT, other INTEGER);"
                         "INSERT INTO t VALUES (1, 1.5, 'a', 1, NULL, 5), (NULL, 2, 'b', 'x', NULL, 6);",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  auto rules = LoadRuleText("griffin: 1\ndataset: d\ncolumns:\n  i: {type: int64}\n  r: {type: float64}\n"
                            "  s: {type: string}\n  mixed: {type: string}\n  empty: {type: date}\n  gone: {type: string}\n",
                            "r.yaml");
  ASSERT_TRUE(rules.ok());
  auto plan = Plan::Compile(*rules, 0);
  ASSERT_TRUE(plan.ok());
  auto target = ParseSqlUri("sqlite://" + file + "?table=t");
  ASSERT_TRUE(target.ok());
  auto connection = ConnectSql(*target, SqlAccess::kReadOnly);
  ASSERT_TRUE(connection.ok()) << connection.status().message();
  auto stored = ProbeStoredTypes(*connection, SqlEngine::kSqlite, **plan, "\"t\"", "", "ctx");
  ASSERT_TRUE(stored.ok()) << stored.status().message();
  EXPECT_EQ(*stored, (std::map<std::string, StoredType>{{"i", StoredType::kInteger}, {"r", StoredType::kDouble},
                                                        {"s", StoredType::kText}, {"mixed", StoredType::kOther},
                                                        {"empty", StoredType::kDate}}));
  // The filter applies: the rows it keeps decide.
  auto filtered = ProbeStoredTypes(*connection, SqlEngine::kSqlite, **plan, "\"t\"", "i = 1", "ctx");
  ASSERT_TRUE(filtered.ok());
  EXPECT_EQ(filtered->at("mixed"), StoredType::kInteger);
}

}  // namespace
}  // namespace griffin::sql
