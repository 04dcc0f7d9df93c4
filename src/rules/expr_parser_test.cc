#include "rules/expr_parser.h"

#include <gtest/gtest.h>

#include <string>

namespace griffin {
namespace {

// Renders a tree as an S-expression: columns bare, strings quoted as 's',
// numbers as written, typed literals tagged (int:12, float:1.5, bool:true).
std::string Render(const ExprNode& node) {
  std::string out;
  switch (node.kind) {
    case ExprNode::Kind::kColumn: return "col:" + node.name;
    case ExprNode::Kind::kLiteral:
      switch (node.literal_kind) {
        case ExprNode::LiteralKind::kNull: return "null";
        case ExprNode::LiteralKind::kBool: return "bool:" + node.text;
        case ExprNode::LiteralKind::kInt: return "int:" + node.text;
        case ExprNode::LiteralKind::kFloat: return "float:" + node.text;
        case ExprNode::LiteralKind::kString: return "'" + node.text + "'";
      }
      return "?";
    case ExprNode::Kind::kUnary: out = "(" + node.op; break;
    case ExprNode::Kind::kBinary: out = "(" + node.op; break;
    case ExprNode::Kind::kIsNull: out = node.negated ? "(isnotnull" : "(isnull"; break;
    case ExprNode::Kind::kIn: out = node.negated ? "(notin" : "(in"; break;
    case ExprNode::Kind::kCall: out = "(" + node.name + "()"; break;
  }
  for (const auto& child : node.children) {
    out += ' ';
    out += Render(*child);
  }
  out += ')';
  return out;
}

std::string Parse(const std::string& text) {
  auto result = ParseExpression(text);
  if (!result.ok()) return "ERROR " + result.status().message();
  return Render(**result);
}

std::string Error(const std::string& text) {
  auto result = ParseExpression(text);
  if (result.ok()) return "parsed: " + Render(**result);
  EXPECT_EQ(result.status().code(), StatusCode::kRuleError);
  return result.status().message();
}

TEST(ExprParserTest, Precedence) {
  EXPECT_EQ(Parse("a or b and c"), "(or col:a (and col:b col:c))");
  EXPECT_EQ(Parse("not a and b"), "(and (not col:a) col:b)");
  EXPECT_EQ(Parse("not a == b"), "(not (== col:a col:b))");
  EXPECT_EQ(Parse("a + b * c < d - e / f"),
            "(< (+ col:a (* col:b col:c)) (- col:d (/ col:e col:f)))");
  EXPECT_EQ(Parse("-a * b"), "(* (- col:a) col:b)");
  EXPECT_EQ(Parse("(a or b) and c"), "(and (or col:a col:b) col:c)");
  EXPECT_EQ(Parse("a + 1 is null"), "(isnull (+ col:a int:1))");
  EXPECT_EQ(Parse("a * 2 in (1, 2)"), "(in (* col:a int:2) int:1 int:2)");
  EXPECT_EQ(Parse("a == 1 or b is not null and c not in ('x')"),
            "(or (== col:a int:1) (and (isnotnull col:b) (notin col:c 'x')))");
}

TEST(ExprParserTest, LeftAssociativity) {
  EXPECT_EQ(Parse("a - b - c"), "(- (- col:a col:b) col:c)");
  EXPECT_EQ(Parse("a / b * c"), "(* (/ col:a col:b) col:c)");
  EXPECT_EQ(Parse("a or b or c"), "(or (or col:a col:b) col:c)");
  EXPECT_EQ(Parse("a and b and c"), "(and (and col:a col:b) col:c)");
  EXPECT_EQ(Parse("not not a"), "(not (not col:a))");
  EXPECT_EQ(Parse("- - a"), "(- (- col:a))");
}

TEST(ExprParserTest, Identifiers) {
  EXPECT_EQ(Parse("_x9"), "col:_x9");
  EXPECT_EQ(Parse("\"my col\""), "col:my col");
  EXPECT_EQ(Parse("\"say \"\"hi\"\"\""), "col:say \"hi\"");
  EXPECT_EQ(Parse("\"and\" == 1"), "(== col:and int:1)");
  EXPECT_EQ(Parse("length"), "col:length");  // a function name without ( is a column
  EXPECT_EQ(Parse("Andy"), "col:Andy");      // keyword prefix is not a keyword
}

TEST(ExprParserTest, Literals) {
  EXPECT_EQ(Parse("12"), "int:12");
  EXPECT_EQ(Parse("1.5e3"), "float:1.5e3");
  EXPECT_EQ(Parse(".5"), "float:.5");
  EXPECT_EQ(Parse("2."), "float:2.");
  EXPECT_EQ(Parse("1E-2"), "float:1E-2");
  EXPECT_EQ(Parse("3e+4"), "float:3e+4");
  EXPECT_EQ(Parse("-7"), "int:-7");
  EXPECT_EQ(Parse("-9223372036854775808"), "int:-9223372036854775808");
  EXPECT_EQ(Parse("- 2.5"), "float:-2.5");
  EXPECT_EQ(Parse("'it''s'"), "'it's'");
  EXPECT_EQ(Parse("''"), "''");
  EXPECT_EQ(Parse("'caf\xC3\xA9'"), "'caf\xC3\xA9'");
  EXPECT_EQ(Parse("TRUE"), "bool:true");
  EXPECT_EQ(Parse("False"), "bool:false");
  EXPECT_EQ(Parse("NuLL"), "null");
  EXPECT_EQ(Parse("a - 1"), "(- col:a int:1)");
  EXPECT_EQ(Parse("a--1"), "(- col:a int:-1)");
}

TEST(ExprParserTest, KeywordsAreCaseInsensitive) {
  EXPECT_EQ(Parse("a IS NOT NULL AND NOT b OR c In (1) or d NOT IN (2)"),
            "(or (or (and (isnotnull col:a) (not col:b)) (in col:c int:1)) (notin col:d int:2))");
}

TEST(ExprParserTest, Operators) {
  EXPECT_EQ(Parse("a == b"), "(== col:a col:b)");
  EXPECT_EQ(Parse("a = b"), "(== col:a col:b)");
  EXPECT_EQ(Parse("a != b"), "(!= col:a col:b)");
  EXPECT_EQ(Parse("a <> b"), "(!= col:a col:b)");
  EXPECT_EQ(Parse("a<b"), "(< col:a col:b)");
  EXPECT_EQ(Parse("a<=b"), "(<= col:a col:b)");
  EXPECT_EQ(Parse("a>b"), "(> col:a col:b)");
  EXPECT_EQ(Parse("a>=b"), "(>= col:a col:b)");
  EXPECT_EQ(Parse("a+b-c*d/e"), "(- (+ col:a col:b) (/ (* col:c col:d) col:e))");
}

TEST(ExprParserTest, Functions) {
  EXPECT_EQ(Parse("abs(x) > 1"), "(> (abs() col:x) int:1)");
  EXPECT_EQ(Parse("LENGTH(s)"), "(length() col:s)");
  EXPECT_EQ(Parse("lower(upper(s))"), "(lower() (upper() col:s))");
  EXPECT_EQ(Parse("matches(s, '^a+$')"), "(matches() col:s '^a+$')");
  EXPECT_EQ(Parse("abs(a + b)"), "(abs() (+ col:a col:b))");
}

TEST(ExprParserTest, InLists) {
  EXPECT_EQ(Parse("x in (1, null, 'a', true, -2.5)"),
            "(in col:x int:1 null 'a' bool:true float:-2.5)");
  EXPECT_EQ(Parse("x not in (1)"), "(notin col:x int:1)");
}

TEST(ExprParserTest, Offsets) {
  auto result = ParseExpression("a  >= 'x'");
  ASSERT_TRUE(result.ok());
  const ExprNode& root = **result;
  EXPECT_EQ(root.offset, 3);
  EXPECT_EQ(root.children[0]->offset, 0);
  EXPECT_EQ(root.children[1]->offset, 6);
  // Offsets count characters, not bytes.
  EXPECT_EQ(Error("\"\xC3\xA9t\xC3\xA9\" == )"), "at offset 9: unexpected ')'");
}

TEST(ExprParserTest, Errors) {
  EXPECT_EQ(Error(""), "at offset 0: empty expression");
  EXPECT_EQ(Error("   "), "at offset 0: empty expression");
  EXPECT_EQ(Error("a == 'abc"), "at offset 5: unterminated string literal");
  EXPECT_EQ(Error("'it''"), "at offset 0: unterminated string literal");
  EXPECT_EQ(Error("\"abc == 1"), "at offset 0: unterminated quoted column name");
  EXPECT_EQ(Error("\"\" == 1"), "at offset 0: empty quoted column name");
  EXPECT_EQ(Error("a == 1 b"), "at offset 7: unexpected identifier 'b' after a complete expression");
  EXPECT_EQ(Error("a < b < c"), "at offset 6: unexpected '<' after a complete expression");
  EXPECT_EQ(Error("(a"), "at offset 2: unexpected end of expression, expected ')'");
  EXPECT_EQ(Error("a)"), "at offset 1: unexpected ')' after a complete expression");
  EXPECT_EQ(Error("a and"), "at offset 5: unexpected end of expression");
  EXPECT_EQ(Error("a == or"), "at offset 5: unexpected 'or'");
  EXPECT_EQ(Error("* a"), "at offset 0: unexpected '*'");
  EXPECT_EQ(Error("+a"), "at offset 0: unexpected '+'");
  EXPECT_EQ(Error("a ! b"), "at offset 2: unexpected character '!'");
  EXPECT_EQ(Error("a == \x01"), "at offset 5: unexpected character (byte 0x01)");
  EXPECT_EQ(Error("a is b"), "at offset 5: unexpected identifier 'b', expected 'null'");
  EXPECT_EQ(Error("a is not 1"), "at offset 9: unexpected number 1, expected 'null'");
  EXPECT_EQ(Error("a not b"), "at offset 6: unexpected identifier 'b', expected 'in' after 'not'");
  EXPECT_EQ(Error("a in 1"), "at offset 5: unexpected number 1, expected '('");
  EXPECT_EQ(Error("a in ()"), "at offset 6: empty in list");
  EXPECT_EQ(Error("a in (1,)"), "at offset 8: unexpected ')'");
  EXPECT_EQ(Error("a in (1 2)"), "at offset 8: unexpected number 2, expected ')'");
  EXPECT_EQ(Error("12abc"), "at offset 0: malformed number '12abc'");
  EXPECT_EQ(Error("x > 1.2.3"), "at offset 4: malformed number '1.2.3'");
  EXPECT_EQ(Error("1e"), "at offset 0: malformed number '1e'");
  EXPECT_EQ(Error("1e+"), "at offset 0: malformed number '1e+'");
  EXPECT_EQ(Error("x == 9223372036854775808"),
            "at offset 5: integer 9223372036854775808 is out of the int64 range");
  EXPECT_EQ(Error("x == 1e999"), "at offset 5: number 1e999 is out of the float64 range");
  EXPECT_EQ(Error("x == foo(1)"),
            "at offset 5: unknown function 'foo' (known: abs, length, lower, upper, matches)");
  EXPECT_EQ(Error("abs()"), "at offset 0: abs() takes 1 argument, got 0");
  EXPECT_EQ(Error("1 + lower(a, b)"), "at offset 4: lower() takes 1 argument, got 2");
  EXPECT_EQ(Error("matches(a)"), "at offset 0: matches() takes 2 arguments, got 1");
  EXPECT_EQ(Error("matches(a, b)"), "at offset 11: matches() needs a string literal as its pattern");
  EXPECT_EQ(Error("matches(a, 'x' || 'y')"), "at offset 15: unexpected character '|'");
  EXPECT_EQ(Error("abs(1"), "at offset 5: unexpected end of expression, expected ')'");
}

TEST(ExprParserTest, NestingLimit) {
  std::string ok = std::string(200, '(') + "a" + std::string(200, ')');
  EXPECT_EQ(Parse(ok), "col:a");
  std::string deep = std::string(300, '(') + "a" + std::string(300, ')');
  EXPECT_EQ(Error(deep), "at offset 256: expression nested too deeply (more than 256 levels)");
  std::string nots;
  for (int i = 0; i < 100000; ++i) nots += "not ";
  EXPECT_EQ(Error(nots + "a"), "at offset 1020: expression nested too deeply (more than 256 levels)");
  EXPECT_EQ(Error(std::string(100000, '-') + "a"),
            "at offset 255: expression nested too deeply (more than 256 levels)");
}

TEST(ExprParserTest, TreeHeightLimit) {
  std::string chain = "a";
  for (int i = 0; i < 998; ++i) chain += "+a";
  EXPECT_TRUE(ParseExpression(chain).ok());  // height 999
  chain += "+a+a";
  EXPECT_EQ(Error(chain), "at offset 1999: expression too large (more than 1000 levels deep)");
}

}  // namespace
}  // namespace griffin
