// ExprProgram: arithmetic, functions, compile errors, and evaluation
// mechanics (chunks, missing columns, threads, register reuse).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <thread>

#include "plan/expr_program.h"
#include "plan/expr_test_util.h"

namespace griffin {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(ExprArithmeticTest, IntOverflowIsNull) {
  ExprTestTable t;
  t.AddInt("big", {kMax, kMin, 5, std::nullopt});
  t.AddInt("one", {1, 1, 1, 1});
  EXPECT_EQ(t.Eval("big + one > 0"), "NFTN");
  EXPECT_EQ(t.Eval("big - one < 0"), "FNFN");
  EXPECT_EQ(t.Eval("big * 2 > 0"), "NNTN");
  EXPECT_EQ(t.Eval("-big > 0"), "FNFN");
  EXPECT_EQ(t.Eval("abs(big) > 0"), "TNTN");
  EXPECT_EQ(t.Eval("big + 1 is null"), "TFFT");
  EXPECT_EQ(t.Eval("big - 1 == 9223372036854775806"), "TNFN");
  EXPECT_EQ(t.Eval("big == -9223372036854775808"), "FTFN");
  EXPECT_EQ(t.Eval("one * 3 - 1 == 2"), "TTTT");
}

TEST(ExprArithmeticTest, DivisionIsFloatAndByZeroIsNull) {
  ExprTestTable t;
  t.AddInt("a", {7, 7, 7, std::nullopt});
  t.AddInt("z", {2, 0, -2, 1});
  t.AddFloat("f", {1.0, -0.0, 0.5, 3.0});
  EXPECT_EQ(t.Eval("a / z == 3.5"), "TNFN");
  EXPECT_EQ(t.Eval("a / z < 0"), "FNTN");
  EXPECT_EQ(t.Eval("a / z == 3"), "FNFN");
  EXPECT_EQ(t.Eval("a / f == 7"), "TNFN");    // -0.0 is zero too
  EXPECT_EQ(t.Eval("a / -0.0 is null"), "TTTT");
  EXPECT_EQ(t.Eval("f / 0 is null"), "TTTT");
  EXPECT_EQ(t.Eval("0 / f is null"), "FTFF");
}

TEST(ExprArithmeticTest, MixedAndFloatArithmetic) {
  ExprTestTable t;
  t.AddInt("i", {1, 2, 3, std::nullopt});
  t.AddFloat("f", {0.5, kNaN, -1.5, 1.0});
  EXPECT_EQ(t.Eval("i + f == 1.5"), "TFTN");
  EXPECT_EQ(t.Eval("i * f < 0"), "FFTN");
  EXPECT_EQ(t.Eval("f - i == -4.5"), "FFTN");
  EXPECT_EQ(t.Eval("-f > 0"), "FFTF");
  EXPECT_EQ(t.Eval("2 * 3 + 1 == 7"), "TTTT");
  EXPECT_EQ(t.Eval("1 - 2 - 3 == -4"), "TTTT");  // left-associative
  EXPECT_EQ(t.Eval("1e308 * 10 > 1e308"), "TTTT");  // float overflow is inf, as IEEE
  EXPECT_EQ(t.Eval("(i + 1) * (i + 2) - (i + 3) == 2"), "TFFN");
}

TEST(ExprFunctionTest, AllFunctions) {
  ExprTestTable t;
  t.AddString("s", {"h\xC3\xA9llo", "ABC", "", std::nullopt});
  t.AddInt("i", {-3, 3, kMin, std::nullopt});
  t.AddFloat("f", {-1.5, 2.0, kNaN, std::nullopt});
  EXPECT_EQ(t.Eval("length(s) == 5"), "TFFN");  // code points, not bytes
  EXPECT_EQ(t.Eval("length(s) > 2"), "TTFN");
  EXPECT_EQ(t.Eval("length(s) == 0"), "FFTN");
  EXPECT_EQ(t.Eval("lower(s) == 'abc'"), "FTFN");
  EXPECT_EQ(t.Eval("upper(s) == 'H\xC3\xA9LLO'"), "TFFN");  // ASCII only: é stays
  EXPECT_EQ(t.Eval("lower(upper(s)) == 'h\xC3\xA9llo'"), "TFFN");
  EXPECT_EQ(t.Eval("lower(s) == upper(s)"), "FFTN");
  EXPECT_EQ(t.Eval("matches(s, 'l+')"), "TFFN");  // partial match
  EXPECT_EQ(t.Eval("matches(s, '^A')"), "FTFN");
  EXPECT_EQ(t.Eval("matches(s, '')"), "TTTN");
  EXPECT_EQ(t.Eval("matches(s, '^h.llo$')"), "TFFN");  // . is one code point
  EXPECT_EQ(t.Eval("matches(lower(s), 'abc')"), "FTFN");
  EXPECT_EQ(t.Eval("abs(i) == 3"), "TTNN");
  EXPECT_EQ(t.Eval("abs(f) == 1.5"), "TFFN");
  EXPECT_EQ(t.Eval("abs(f) >= 0"), "TTFN");
  EXPECT_EQ(t.Eval("abs(-2) == 2"), "TTTT");
  EXPECT_EQ(t.Eval("length(null) is null"), "TTTT");
  EXPECT_EQ(t.Eval("matches(null, 'x')"), "NNNN");
  EXPECT_EQ(t.Eval("upper(null) == 'A'"), "NNNN");
  EXPECT_EQ(t.Eval("abs(null) is null"), "TTTT");
  EXPECT_EQ(t.Eval("length('caf\xC3\xA9') == 4"), "TTTT");
}

TEST(ExprCompileErrorTest, Messages) {
  ExprTestTable t;
  t.AddInt("i", {1});
  t.AddString("s", {"x"});
  t.AddBool("b", {true});
  t.AddInt("d", {0}, ValueType::kDate);
  EXPECT_EQ(t.Error("nope > 1"), "nope > 1: at offset 0: unknown column 'nope'");
  EXPECT_EQ(t.Error("i > 1 and \"my col\""), "i > 1 and \"my col\": at offset 10: unknown column 'my col'");
  EXPECT_EQ(t.Error("s + 1 > 0"), "s + 1 > 0: at offset 2: '+' needs numbers, got string and int64");
  EXPECT_EQ(t.Error("'a' * 2 > 0"), "'a' * 2 > 0: at offset 4: '*' needs numbers, got string and int64");
  EXPECT_EQ(t.Error("b - 1 > 0"), "b - 1 > 0: at offset 2: '-' needs numbers, got bool and int64");
  EXPECT_EQ(t.Error("d + 1 > d"), "d + 1 > d: at offset 2: '+' needs numbers, got date and int64");
  EXPECT_EQ(t.Error("not i"), "not i: at offset 4: 'not' needs bool operands, got int64");
  EXPECT_EQ(t.Error("i and b"), "i and b: at offset 0: 'and' needs bool operands, got int64");
  EXPECT_EQ(t.Error("b or 'x'"), "b or 'x': at offset 5: 'or' needs bool operands, got string");
  EXPECT_EQ(t.Error("-s == 1"), "-s == 1: at offset 0: unary '-' needs a number, got string");
  EXPECT_EQ(t.Error("length(i) > 1"), "length(i) > 1: at offset 7: length() needs a string, got int64");
  EXPECT_EQ(t.Error("lower(b) == 'x'"), "lower(b) == 'x': at offset 6: lower() needs a string, got bool");
  EXPECT_EQ(t.Error("upper(1) == 'x'"), "upper(1) == 'x': at offset 6: upper() needs a string, got int64");
  EXPECT_EQ(t.Error("abs(s) > 1"), "abs(s) > 1: at offset 4: abs() needs a number, got string");
  EXPECT_EQ(t.Error("matches(i, 'x')"), "matches(i, 'x'): at offset 8: matches() needs a string, got int64");
  EXPECT_EQ(t.Error("matches(s, '(')"), "matches(s, '('): at offset 11: bad pattern in matches(): missing ): (");
  EXPECT_EQ(t.Error("matches(null, '[')"),
            "matches(null, '['): at offset 14: bad pattern in matches(): missing ]: [");
  EXPECT_EQ(t.Error("i + 1"), "i + 1: at offset 2: a row expression must be true or false, got int64");
  EXPECT_EQ(t.Error("s"), "s: at offset 0: a row expression must be true or false, got string");
  EXPECT_EQ(t.Error("b"), "");
  EXPECT_EQ(t.Error("1 + 2 in (3)"), "");
}

TEST(ExprEvaluateTest, ManyChunks) {
  ExprTestTable t;
  const int64_t rows = 5000;  // several chunks, the last one partial
  std::vector<std::optional<std::string>> strings;
  std::vector<std::optional<int64_t>> ints;
  std::string expected;
  for (int64_t r = 0; r < rows; ++r) {
    strings.push_back(r % 3 == 0 ? "ABC" : (r % 3 == 1 ? "xyz" : std::optional<std::string>()));
    ints.push_back(r);
    // null and false is false (Kleene), so null s only shows before row 4500.
    expected += r % 3 == 2 && r < 4500 ? 'N' : (r % 3 == 0 && r < 4500 ? 'T' : 'F');
  }
  t.AddString("s", strings);
  t.AddInt("i", ints);
  EXPECT_EQ(t.Eval("lower(s) == 'abc' and i < 4500"), expected);
}

TEST(ExprEvaluateTest, AbsentOrMistypedColumnIsNull) {
  ExprTestTable t;
  t.AddInt("i", {1, 2});
  t.AddFloat("f", {1.0, 2.0});
  auto program = t.Compile("i is null and f > 0 or i == 1");
  ASSERT_TRUE(program.ok());
  EXPECT_EQ(t.Render(**program), "TF");
  t.column("i").present = false;
  t.column("i").valid.clear();
  EXPECT_EQ(t.Render(**program), "TT");
  t.column("i").present = true;
  t.column("i").valid.assign(2, 1);
  t.column("i").type = ValueType::kFloat64;  // not what the program was compiled for
  EXPECT_EQ(t.Render(**program), "TT");
  std::vector<uint8_t> verdicts = {9};
  (*program)->Evaluate({}, 3, &verdicts);  // no columns at all
  EXPECT_EQ(verdicts, (std::vector<uint8_t>{2, 2, 2}));
  (*program)->Evaluate({}, 0, &verdicts);
  EXPECT_TRUE(verdicts.empty());
}

TEST(ExprEvaluateTest, ColumnSlots) {
  ExprTestTable t;
  t.AddInt("a", {1});
  t.AddInt("b", {1});
  t.AddInt("c", {1});
  auto program = t.Compile("c > 1 and a < c or a == 1");
  ASSERT_TRUE(program.ok());
  EXPECT_EQ((*program)->column_slots(), (std::vector<int>{0, 2}));
}

TEST(ExprEvaluateTest, ConcurrentEvaluationsAgree) {
  ExprTestTable t;
  std::vector<std::optional<std::string>> strings;
  for (int r = 0; r < 10000; ++r) strings.push_back(r % 2 ? "Ab" : "cD");
  t.AddString("s", strings);
  auto program = t.Compile("upper(s) == 'AB' and length(lower(s)) == 2");
  ASSERT_TRUE(program.ok());
  const std::string expected = t.Render(**program);
  std::string first, second;
  std::thread one([&] { first = t.Render(**program); });
  std::thread two([&] { second = t.Render(**program); });
  one.join();
  two.join();
  EXPECT_EQ(first, expected);
  EXPECT_EQ(second, expected);
  EXPECT_EQ(expected.substr(0, 4), "FTFT");
}

TEST(ExprEvaluateTest, LongChainsReuseRegisters) {
  ExprTestTable t;
  t.AddInt("a", {1, 2, 3, std::nullopt});
  std::string chain = "a";
  for (int i = 1; i < 900; ++i) chain += " + a";
  EXPECT_EQ(t.Eval(chain + " == 900 * a"), "TTTN");
  std::string ors = "a == 0";
  for (int i = 1; i < 900; ++i) ors += " or a == " + std::to_string(i * 2);
  EXPECT_EQ(t.Eval(ors), "FTFN");
}

}  // namespace
}  // namespace griffin
