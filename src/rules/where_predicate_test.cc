#include "rules/where_predicate.h"

#include <gtest/gtest.h>

namespace griffin {
namespace {

// The tree in a compact prefix form, to compare shapes.
std::string Shape(const WherePredicate& node) {
  using Kind = WherePredicate::Kind;
  auto kids = [&](const char* name) {
    std::string out = std::string(node.negated ? "not-" : "") + name + "(";
    for (size_t i = 0; i < node.children.size(); ++i) out += (i ? " " : "") + Shape(*node.children[i]);
    return out + ")";
  };
  switch (node.kind) {
    case Kind::kAnd: return kids("and");
    case Kind::kOr: return kids("or");
    case Kind::kNot: return kids("not");
    case Kind::kCompare: return kids(node.op.c_str());
    case Kind::kIsNull: return kids("isnull");
    case Kind::kIn: return kids("in");
    case Kind::kBetween: return kids("between");
    case Kind::kLike: return kids("like");
    case Kind::kColumn: return "col:" + node.column;
    case Kind::kLiteral:
      switch (node.literal.kind) {
        case Literal::Kind::kString: return "str:" + node.literal.text;
        case Literal::Kind::kInt: return "int:" + std::to_string(node.literal.int_value);
        case Literal::Kind::kFloat: return "float:" + node.literal.text;
        case Literal::Kind::kBool: return std::string("bool:") + (node.literal.int_value ? "1" : "0");
        case Literal::Kind::kDate: return "date:" + std::to_string(node.literal.int_value);
        default: return "?";
      }
  }
  return "?";
}

std::string ShapeOf(const std::string& text) {
  auto parsed = ParseWhere(text);
  return parsed.ok() ? Shape(**parsed) : "error: " + parsed.status().message();
}

TEST(WherePredicate, ComparisonsListsRangesPatternsAndNulls) {
  EXPECT_EQ(ShapeOf("region = 'eu'"), "=(col:region str:eu)");
  EXPECT_EQ(ShapeOf("a == 1 AND b <> -2.5 OR c != TRUE"), "or(and(=(col:a int:1) <>(col:b float:-2.5)) <>(col:c bool:1))");
  EXPECT_EQ(ShapeOf("a < 1 and (b <= 2 or not c >= 3) and d > 4"),
            "and(and(<(col:a int:1) or(<=(col:b int:2) not(>=(col:c int:3)))) >(col:d int:4))");
  EXPECT_EQ(ShapeOf("k IS NULL OR k IS NOT null"), "or(isnull(col:k) not-isnull(col:k))");
  EXPECT_EQ(ShapeOf("cur IN ('USD', 'EUR') AND n NOT IN (1, 2)"),
            "and(in(col:cur str:USD str:EUR) not-in(col:n int:1 int:2))");
  EXPECT_EQ(ShapeOf("x BETWEEN 1 AND 10 AND y NOT BETWEEN -1 AND 1"),
            "and(between(col:x int:1 int:10) not-between(col:y int:-1 int:1))");
  EXPECT_EQ(ShapeOf("email LIKE '%@x.com' AND name not like 'a''b%'"),
            "and(like(col:email str:%@x.com) not-like(col:name str:a'b%))");
  EXPECT_EQ(ShapeOf("day >= DATE '2026-12-01'"), ">=(col:day date:20788)");
  EXPECT_EQ(ShapeOf("date = date '1970-01-02'"), "=(col:date date:1)");  // a column named date
  EXPECT_EQ(ShapeOf("\"odd name\" = 1 AND \"and\" = 2"), "and(=(col:odd name int:1) =(col:and int:2))");
  EXPECT_EQ(ShapeOf("1 = 1"), "=(int:1 int:1)");
}

TEST(WherePredicate, SqlBeyondTheGrammarIsRefusedWithItsOffset) {
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"1=1; DROP TABLE rows; --", "at offset 3: unexpected character ';'"},
      {"k > 1 -- comment", "at offset 6: expected AND, OR or the end, got '-'"},
      {"k > 1 /* c */", "at offset 6: expected AND, OR or the end, got '/'"},
      {"1=1) AS x; DROP TABLE t; SELECT (1", "at offset 3: expected AND, OR or the end, got ')'"},
      {"region = 'eu' UNION SELECT 1", "at offset 14: expected AND, OR or the end, got identifier 'UNION'"},
      {"lower(region) = 'eu'", "at offset 5: expected a comparison (= != < <= > >=), IS [NOT] NULL, IN, BETWEEN or "
                               "LIKE, got '('"},
      {"k = (SELECT 1)", "at offset 4: expected a column or a value ('text', a number, TRUE, FALSE, DATE "
                         "'YYYY-MM-DD'), got '('"},
      {"k + 1 > 2", "at offset 2: expected a comparison (= != < <= > >=), IS [NOT] NULL, IN, BETWEEN or LIKE, got '+'"},
      {"active", "at offset 6: expected a comparison (= != < <= > >=), IS [NOT] NULL, IN, BETWEEN or LIKE, got "
                 "end of expression"},
      {"k IN (a)", "at offset 7: IN takes a list of values, not column 'a'"},
      {"name LIKE other", "at offset 10: expected a 'pattern' after LIKE, got identifier 'other'"},
      {"day = DATE '2026-02-30'", "at offset 6: DATE '2026-02-30' is not a date (YYYY-MM-DD)"},
      {"k = 99999999999999999999", "at offset 4: the integer 99999999999999999999 does not fit 64 bits"},
      {"s = 'open", "at offset 4: unterminated string literal"},
      {"", "at offset 0: expected a column or a value ('text', a number, TRUE, FALSE, DATE 'YYYY-MM-DD'), got end "
           "of expression"},
  };
  for (const auto& [text, message] : refused) {
    auto parsed = ParseWhere(text);
    ASSERT_FALSE(parsed.ok()) << text;
    EXPECT_EQ(parsed.status().code(), StatusCode::kRuleError) << text;
    EXPECT_EQ(parsed.status().message(), message) << text;
  }
}

TEST(WherePredicate, DeepNestingIsRefusedNotACrash) {
  std::string deep;
  for (int i = 0; i < 5000; ++i) deep += "(";
  auto parsed = ParseWhere(deep + "k = 1");
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("nested too deeply"), std::string::npos);
  std::string nots;
  for (int i = 0; i < 150; ++i) nots += "NOT ";
  EXPECT_TRUE(ParseWhere(nots + "k = 1").ok());
}

}  // namespace
}  // namespace griffin
