// Row checks through LoadRuleText.
#include <gtest/gtest.h>

#include "rules/rule_loader_test_util.h"

namespace griffin {
namespace {

using testing::BodyError;
using testing::LoadBody;

TEST(RowChecks, ExprAndUniqueWithOptions) {
  Result<RuleSet> rules = LoadBody(
      "rows:\n"
      "  - name: positive\n"
      "    expr: amount > 0\n"
      "    severity: warn\n"
      "    mostly: 0.9\n"
      "    message: 'row {row} is not positive'\n"
      "  - {name: pair, unique: [a, \"b c\"]}\n");
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  ASSERT_EQ(rules->rows.size(), 2u);
  const RowCheck& expr = rules->rows[0];
  EXPECT_EQ(expr.name, "positive");
  EXPECT_EQ(expr.kind, RowCheck::Kind::kExpr);
  EXPECT_EQ(expr.expr_text, "amount > 0");
  ASSERT_NE(expr.expr, nullptr);
  EXPECT_EQ(expr.expr->kind, ExprNode::Kind::kBinary);
  EXPECT_EQ(expr.expr->op, ">");
  EXPECT_EQ(expr.options.severity, Severity::kWarn);
  EXPECT_EQ(expr.options.mostly, 0.9);
  EXPECT_EQ(expr.options.message, "row {row} is not positive");
  EXPECT_EQ(expr.location.line, 4);
  EXPECT_EQ(expr.location.column, 5);
  const RowCheck& unique = rules->rows[1];
  EXPECT_EQ(unique.kind, RowCheck::Kind::kUnique);
  EXPECT_EQ(unique.unique_columns, (std::vector<std::string>{"a", "b c"}));
  EXPECT_EQ(unique.location.line, 9);
}

TEST(RowChecks, Errors) {
  EXPECT_EQ(BodyError("rows:\n  - expr: a > 1\n"),
            "r.yaml:4: rows[0]: missing name (every row check needs one)");
  EXPECT_EQ(BodyError("rows:\n  - name: x\n"), "r.yaml:4: rows[0]: needs expr or unique");
  EXPECT_EQ(BodyError("rows:\n  - {name: x, expr: a, unique: [a]}\n"),
            "r.yaml:4: rows[0]: give either expr or unique, not both");
  EXPECT_EQ(BodyError("rows:\n  - {name: x, unique: []}\n"),
            "r.yaml:4: rows[0].unique: needs at least one column");
  EXPECT_EQ(BodyError("rows:\n  - {name: x, unique: a}\n"),
            "r.yaml:4: rows[0].unique: expected a list of column names, found 'a'");
  EXPECT_EQ(BodyError("rows:\n  - {name: x, expr: a > 1, when: b}\n"),
            "r.yaml:4: rows[0].when: unknown key (expected one of: name, expr, unique, severity, "
            "mostly, message)");
  EXPECT_EQ(BodyError("rows:\n  - name: x\n    expr: a > 1\n    severity: info\n"),
            "r.yaml:6: rows[0].severity: expected error or warn, found 'info'");
  EXPECT_EQ(BodyError("rows:\n  - just_text\n"),
            "r.yaml:4: rows[0]: expected a map like {name: ..., expr: ...}, found 'just_text'");
}

TEST(RowChecks, ExpressionErrorsGainFileAndLine) {
  EXPECT_EQ(BodyError("rows:\n  - name: x\n    expr: 'a > '\n"),
            "r.yaml:5: rows[0].expr: at offset 4: unexpected end of expression");
  EXPECT_EQ(BodyError("rows:\n  - name: x\n    expr: \"matches(a, '(')\"\n"),
            "r.yaml:5: rows[0].expr: at offset 11: bad regex in matches(): missing ): (");
}

TEST(RowChecks, DateLiteralsAreCheckedAgainstDeclaredColumns) {
  EXPECT_EQ(BodyError("columns:\n  d: {type: date}\nrows:\n  - name: x\n"
                      "    expr: \"d >= '2024-01-01' and d in ('2024-02-30')\"\n"),
            "r.yaml:7: rows[0].expr: at offset 28: '2024-02-30' is not a date or timestamp "
            "(column d is date)");
  EXPECT_EQ(BodyError("columns:\n  t: {type: timestamp}\nrows:\n  - name: x\n"
                      "    expr: \"'soon' < t\"\n"),
            "r.yaml:7: rows[0].expr: at offset 0: 'soon' is not a date or timestamp (column t is "
            "timestamp)");
  EXPECT_EQ(BodyError("columns:\n  t: {type: timestamp}\nrows:\n  - name: x\n"
                      "    expr: \"t < '2024-01-01T00:00:00Z' and u < 'soon'\"\n"),
            "OK");
}

}  // namespace
}  // namespace griffin
