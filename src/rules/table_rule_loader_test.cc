// Table checks through LoadRuleText.
#include <gtest/gtest.h>

#include "rules/rule_loader_test_util.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

using testing::BodyError;
using testing::LoadBody;

constexpr const char* kColumns =
    "columns:\n"
    "  n: {type: int64}\n"      // line 4
    "  x: {type: float64}\n"
    "  s: {type: string}\n"
    "  d: {type: date}\n"
    "  t: {type: timestamp}\n"
    "table:\n";                 // line 9

TEST(TableChecks, AllMetrics) {
  Result<RuleSet> rules = LoadBody(std::string(kColumns) +
                                   "  - row_count: {min: 1, max: 1e6}\n"
                                   "  - null_fraction: {column: s, max: 0.05, severity: warn}\n"
                                   "  - distinct_count: {column: s, min: 2}\n"
                                   "  - mean: {column: x, min: 10, max: 500}\n"
                                   "  - stddev: {column: n, max: 3}\n"
                                   "  - sum: {column: n, min: -5}\n"
                                   "  - min: {column: d, min: 2024-01-01}\n"
                                   "  - max: {column: t, max: now, message: too new}\n"
                                   "  - quantile: {column: x, q: 0.99, max: 100}\n");
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  const std::vector<TableCheck>& table = rules->table;
  ASSERT_EQ(table.size(), 9u);
  EXPECT_EQ(table[0].metric, TableMetric::kRowCount);
  EXPECT_FALSE(table[0].column.has_value());
  EXPECT_EQ(table[0].min->kind, Literal::Kind::kInt);
  EXPECT_EQ(table[0].min->int_value, 1);
  EXPECT_EQ(table[0].max->kind, Literal::Kind::kFloat);
  EXPECT_EQ(table[0].max->float_value, 1e6);
  EXPECT_EQ(table[0].location.line, 10);
  EXPECT_EQ(table[0].location.column, 5);
  EXPECT_EQ(table[1].column, "s");
  EXPECT_EQ(table[1].options.severity, Severity::kWarn);
  EXPECT_EQ(table[1].max->kind, Literal::Kind::kFloat);
  EXPECT_EQ(table[2].min->kind, Literal::Kind::kInt);
  EXPECT_EQ(table[3].min->kind, Literal::Kind::kFloat);
  EXPECT_EQ(table[3].min->float_value, 10.0);
  EXPECT_EQ(table[5].min->kind, Literal::Kind::kInt);
  EXPECT_EQ(table[5].min->int_value, -5);
  EXPECT_EQ(table[6].min->kind, Literal::Kind::kDate);
  EXPECT_EQ(table[6].min->int_value, DaysFromCivil(2024, 1, 1));
  EXPECT_EQ(table[7].max->kind, Literal::Kind::kNow);
  EXPECT_EQ(table[7].options.message, "too new");
  EXPECT_EQ(table[8].metric, TableMetric::kQuantile);
  EXPECT_EQ(table[8].q, 0.99);
}

TEST(TableChecks, Errors) {
  const std::string head = kColumns;
  EXPECT_EQ(BodyError(head + "  - mean: {min: 1}\n"), "r.yaml:10: table[0].mean: needs a column");
  EXPECT_EQ(BodyError(head + "  - mean: {column: amount, min: 1}\n"),
            "r.yaml:10: table[0].mean.column: column 'amount' is not declared in columns:");
  EXPECT_EQ(BodyError(head + "  - median: {column: x, min: 1}\n"),
            "r.yaml:10: table[0].median: unknown key (expected one of: row_count, null_fraction, "
            "distinct_count, mean, stddev, sum, min, max, quantile, anomaly)");
  EXPECT_EQ(BodyError(head + "  - quantile: {column: x, q: 1.5, max: 1}\n"),
            "r.yaml:10: table[0].quantile.q: must be between 0 and 1, found 1.5");
  EXPECT_EQ(BodyError(head + "  - mean: {column: x, q: 0.5, max: 1}\n"),
            "r.yaml:10: table[0].mean.q: q applies only to quantile");
  EXPECT_EQ(BodyError(head + "  - row_count: {column: x, min: 1}\n"),
            "r.yaml:10: table[0].row_count.column: row_count takes no column");
  EXPECT_EQ(BodyError(head + "  - row_count: {min: 1, mostly: 0.5}\n"),
            "r.yaml:10: table[0].row_count.mostly: mostly does not apply to table checks (they "
            "have no rows)");
  EXPECT_EQ(BodyError(head + "  - row_count: {min: 1, severity: fatal}\n"),
            "r.yaml:10: table[0].row_count.severity: expected error or warn, found 'fatal'");
  EXPECT_EQ(BodyError(head + "  - row_count: {min: 1, limit: 2}\n"),
            "r.yaml:10: table[0].row_count.limit: unknown key (expected one of: column, min, max, "
            "q, severity, message)");
  EXPECT_EQ(BodyError(head + "  - row_count: {}\n"), "OK");  // no bounds: observe only
  EXPECT_EQ(BodyError(head + "  - row_count: {min: many}\n"),
            "r.yaml:10: table[0].row_count.min: 'many' is not a number");
  EXPECT_EQ(BodyError(head + "  - row_count: {min: 1}\n    mean: {column: x, min: 1}\n"),
            "r.yaml:10: table[0]: expected one metric per item, like `- row_count: {min: 1}`");
  EXPECT_EQ(BodyError(head + "  - mean: {column: s, min: 1}\n"),
            "r.yaml:10: table[0].mean: mean applies only to int64 and float64 columns; s is "
            "string");
  EXPECT_EQ(BodyError(head + "  - max: {column: s, max: 1}\n"),
            "r.yaml:10: table[0].max: max applies only to int64, float64, date and timestamp "
            "columns; s is string");
  EXPECT_EQ(BodyError(head + "  - min: {column: d, min: 5}\n"),
            "r.yaml:10: table[0].min.min: '5' is not a date, a timestamp or now");
  EXPECT_EQ(BodyError(head + "  - row_count: {min: 10, max: 0}\n"),
            "r.yaml:10: table[0].row_count.max: min 10 is greater than max 0");
  EXPECT_EQ(BodyError(head + "  - mean: {column: x, min: 0.5, max: 0.25}\n"),
            "r.yaml:10: table[0].mean.max: min 0.5 is greater than max 0.25");
  EXPECT_EQ(BodyError(head + "  - quantile: {column: n, q: 0.9, min: 100, max: 10}\n"),
            "r.yaml:10: table[0].quantile.max: min 100 is greater than max 10");
  EXPECT_EQ(BodyError(head + "  - max: {column: n, min: 1.5, max: 1.75}\n"),
            "r.yaml:10: table[0].max.max: min 1.5 and max 1.75 leave no value that can pass");
  EXPECT_EQ(BodyError(head + "  - min: {column: t, min: 2024-01-02, max: 2024-01-01}\n"),
            "r.yaml:10: table[0].min.max: min 2024-01-02 is greater than max 2024-01-01");
  EXPECT_EQ(BodyError(head + "  - mean: {column: n, min: 1.5, max: 1.75}\n"), "OK");
  EXPECT_EQ(BodyError(head + "  - null_fraction: {column: s, min: 0.1, max: 0.1}\n"), "OK");
  EXPECT_EQ(BodyError(head + "  - row_count: 5\n"),
            "r.yaml:10: table[0].row_count: expected a map of bounds, like {min: 1}, found '5'");
}

}  // namespace
}  // namespace griffin
