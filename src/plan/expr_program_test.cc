// ExprProgram: three-valued logic, comparisons on every allowed type pair,
// string/number and date-literal casts, `in`, `is null`.
// Arithmetic, functions, errors and evaluation mechanics are in
// expr_program_functions_test.cc.
#include "plan/expr_program.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "plan/expr_test_util.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

int64_t Day(const char* text) { return ParseDate(text).value(); }
int64_t Micros(const char* text) { return ParseTimestamp(text).value(); }

TEST(ExprProgramLogicTest, KleeneTruthTables) {
  ExprTestTable t;
  t.AddBool("a", {true, true, true, false, false, false, std::nullopt, std::nullopt, std::nullopt});
  t.AddBool("b", {true, false, std::nullopt, true, false, std::nullopt, true, false, std::nullopt});
  EXPECT_EQ(t.Eval("a and b"), "TFNFFFNFN");
  EXPECT_EQ(t.Eval("a or b"), "TTTTFNTNN");
  EXPECT_EQ(t.Eval("not a"), "FFFTTTNNN");
  EXPECT_EQ(t.Eval("not b"), "FTNFTNFTN");
  EXPECT_EQ(t.Eval("a and null"), "NNNFFFNNN");
  EXPECT_EQ(t.Eval("null or a"), "TTTNNNNNN");
  EXPECT_EQ(t.Eval("not null"), "NNNNNNNNN");
  EXPECT_EQ(t.Eval("null"), "NNNNNNNNN");
  EXPECT_EQ(t.Eval("true and a"), "TTTFFFNNN");
  EXPECT_EQ(t.Eval("false or not b"), "FTNFTNFTN");
  EXPECT_EQ(t.Eval("not (a and b) == (not a or not b)"), "TTNTTTNTN");
}

class ExprCompareTest : public ::testing::Test {
 protected:
  void SetUp() override {
    t.AddInt("i", {1, 2, 3, std::nullopt});
    t.AddInt("j", {2, 2, 2, 2});
    t.AddFloat("f", {1.5, 2.0, kNaN, std::nullopt});
    t.AddString("s", {"apple", "banana", "Apple", std::nullopt});
    t.AddString("s2", {"apple", "apple", "apple", "apple"});
    t.AddBool("bc", {true, false, true, std::nullopt});
    t.AddInt("d", {Day("2024-01-01"), Day("2024-03-01"), Day("2023-12-31"), std::nullopt},
             ValueType::kDate);
    t.AddInt("d2", {Day("2024-01-01"), Day("2024-01-01"), Day("2024-01-01"), Day("2024-01-01")},
             ValueType::kDate);
    t.AddInt("ts",
             {Micros("2024-01-01T00:00:00Z"), Micros("2024-01-01T12:00:00Z"),
              Micros("2023-12-31T23:59:59Z"), std::nullopt},
             ValueType::kTimestamp);
  }
  ExprTestTable t;
};

TEST_F(ExprCompareTest, IntWithInt) {
  EXPECT_EQ(t.Eval("i == j"), "FTFN");
  EXPECT_EQ(t.Eval("i != j"), "TFTN");
  EXPECT_EQ(t.Eval("i < j"), "TFFN");
  EXPECT_EQ(t.Eval("i <= j"), "TTFN");
  EXPECT_EQ(t.Eval("i > j"), "FFTN");
  EXPECT_EQ(t.Eval("i >= j"), "FTTN");
  EXPECT_EQ(t.Eval("i = 2"), "FTFN");
  EXPECT_EQ(t.Eval("i <> 2"), "TFTN");
  EXPECT_EQ(t.Eval("2 < i"), "FFTN");
}

TEST_F(ExprCompareTest, FloatWithFloatFollowsIeee) {
  EXPECT_EQ(t.Eval("f < 2.0"), "TFFN");
  EXPECT_EQ(t.Eval("f == 2.0"), "FTFN");
  EXPECT_EQ(t.Eval("f != 2.0"), "TFTN");  // NaN != x is true
  EXPECT_EQ(t.Eval("f >= 2.0"), "FTFN");  // NaN fails bounds
  EXPECT_EQ(t.Eval("f <= 1.5e0"), "TFFN");
  EXPECT_EQ(t.Eval("f > .5"), "TTFN");
  EXPECT_EQ(t.Eval("f == f"), "TTFN");
}

TEST_F(ExprCompareTest, IntWithFloatComparesAsFloat) {
  EXPECT_EQ(t.Eval("i < f"), "TFFN");
  EXPECT_EQ(t.Eval("i == 2.0"), "FTFN");
  EXPECT_EQ(t.Eval("f > i"), "TFFN");
  EXPECT_EQ(t.Eval("i >= 2.5"), "FFTN");
}

TEST_F(ExprCompareTest, StringWithStringIsBytewise) {
  EXPECT_EQ(t.Eval("s < 'b'"), "TFTN");
  EXPECT_EQ(t.Eval("s == 'apple'"), "TFFN");
  EXPECT_EQ(t.Eval("s >= 'apple'"), "TTFN");  // 'A' sorts before 'a'
  EXPECT_EQ(t.Eval("s != s2"), "FTTN");
  EXPECT_EQ(t.Eval("s2 > s"), "FFTN");
  EXPECT_EQ(t.Eval("s <= 'banana'"), "TTTN");
}

TEST_F(ExprCompareTest, BoolWithBool) {
  EXPECT_EQ(t.Eval("bc == true"), "TFTN");
  EXPECT_EQ(t.Eval("bc != false"), "TFTN");
  EXPECT_EQ(t.Eval("bc > false"), "TFTN");
  EXPECT_EQ(t.Eval("bc < true"), "FTFN");
  EXPECT_EQ(t.Eval("bc == (i > 1)"), "FFTN");
}

TEST_F(ExprCompareTest, DatesAndTimestamps) {
  EXPECT_EQ(t.Eval("d >= '2024-01-01'"), "TTFN");
  EXPECT_EQ(t.Eval("'2024-03-01' == d"), "FTFN");
  EXPECT_EQ(t.Eval("d == d2"), "TFFN");
  EXPECT_EQ(t.Eval("d > d2"), "FTFN");
  // A timestamp literal widens a date column to midnight UTC.
  EXPECT_EQ(t.Eval("d < '2024-01-01T00:00:01'"), "TFTN");
  EXPECT_EQ(t.Eval("d <= '2024-01-01 00:00:00Z'"), "TFTN");
  // A date literal against a timestamp column is midnight UTC.
  EXPECT_EQ(t.Eval("ts == '2024-01-01'"), "TFFN");
  EXPECT_EQ(t.Eval("ts > '2024-01-01T06:00:00+05:00'"), "FTFN");
  EXPECT_EQ(t.Eval("ts != '2024-01-01T12:00:00.000000Z'"), "TFTN");
  // Date column against timestamp column.
  EXPECT_EQ(t.Eval("ts >= d"), "TFTN");
  EXPECT_EQ(t.Eval("d == ts"), "TFFN");
  EXPECT_EQ(t.Eval("ts < d2"), "FFTN");
}

TEST_F(ExprCompareTest, NullLiteralMakesComparisonsNull) {
  EXPECT_EQ(t.Eval("i == null"), "NNNN");
  EXPECT_EQ(t.Eval("null < 1"), "NNNN");
  EXPECT_EQ(t.Eval("s != null"), "NNNN");
  EXPECT_EQ(t.Eval("null == null"), "NNNN");
  EXPECT_EQ(t.Eval("i + null > 1"), "NNNN");
}

TEST(ExprCastTest, StringComparedWithNumberParsesAsFloat) {
  ExprTestTable t;
  t.AddString("s", {"5", "abc", " 7 ", "1e1", std::nullopt, "nan", "-inf"});
  t.AddInt("i", {5, 6, 7, 10, 1, 1, 1});
  t.AddFloat("f", {5.0, 0.0, 7.0, 10.5, 1.0, kNaN, -1.0});
  EXPECT_EQ(t.Eval("s > 4"), "TNTTNFF");
  EXPECT_EQ(t.Eval("s == 5"), "TNFFNFF");
  EXPECT_EQ(t.Eval("4.5 < s"), "TNTTNFF");
  EXPECT_EQ(t.Eval("s == i"), "TNTTNFF");
  EXPECT_EQ(t.Eval("s < f"), "FNFTNFT");
  EXPECT_EQ(t.Eval("i == '5'"), "TFFFFFF");
  EXPECT_EQ(t.Eval("i == '5.0'"), "TFFFFFF");
  EXPECT_EQ(t.Eval("i >= ' 7 '"), "FFTTFFF");
  EXPECT_EQ(t.Eval("'3' < 10"), "TTTTTTT");
  EXPECT_EQ(t.Error("i == 'abc'"), "i == 'abc': at offset 5: cannot compare int64 with 'abc': it is not a number");
  EXPECT_EQ(t.Error("'x' > f"), "'x' > f: at offset 0: cannot compare float64 with 'x': it is not a number");
}

TEST(ExprCastTest, TemporalComparisonErrors) {
  ExprTestTable t;
  t.AddInt("d", {0}, ValueType::kDate);
  t.AddInt("ts", {0}, ValueType::kTimestamp);
  t.AddString("s", {"2024-01-01"});
  t.AddBool("b", {true});
  t.AddInt("i", {1});
  EXPECT_EQ(t.Error("d == 'yesterday'"), "d == 'yesterday': at offset 5: 'yesterday' is not a date");
  EXPECT_EQ(t.Error("ts < '2024-13-01'"), "ts < '2024-13-01': at offset 5: '2024-13-01' is not a timestamp");
  EXPECT_EQ(t.Error("d == s"),
            "d == s: at offset 2: cannot compare date with a string column (declare the column's "
            "type, or compare with a literal)");
  EXPECT_EQ(t.Error("d == 5"), "d == 5: at offset 2: cannot compare date with int64");
  EXPECT_EQ(t.Error("b == 1"), "b == 1: at offset 2: cannot compare bool with int64");
  EXPECT_EQ(t.Error("b != 'true'"), "b != 'true': at offset 2: cannot compare bool with string");
  EXPECT_EQ(t.Error("i < true"), "i < true: at offset 2: cannot compare int64 with bool");
  EXPECT_EQ(t.Eval("s == '2024-01-01'"), "T");  // string with string: bytes
}

TEST(ExprCastTest, LiteralsMayUseTheColumnFormat) {
  ExprTestTable t;
  t.AddInt("ts", {Micros("2024-01-02T00:00:00Z"), Micros("2024-01-01T10:30:00Z"), std::nullopt},
           ValueType::kTimestamp);
  t.AddInt("d", {Day("2024-01-02"), Day("2024-01-01"), Day("2024-01-03")}, ValueType::kDate);
  t.SetFormat("ts", "%d/%m/%Y %H:%M");
  t.SetFormat("d", "%d/%m/%Y");
  EXPECT_EQ(t.Eval("ts >= '02/01/2024 00:00'"), "TFN");
  EXPECT_EQ(t.Eval("ts == '2024-01-01T10:30:00Z'"), "FTN");  // ISO still works
  EXPECT_EQ(t.Eval("ts in ('01/01/2024 10:30')"), "FTN");
  EXPECT_EQ(t.Eval("'03/01/2024' == d"), "FFT");
  EXPECT_EQ(t.Error("ts < '2024/01/02'"), "ts < '2024/01/02': at offset 5: '2024/01/02' is not a timestamp");
}

TEST(ExprInTest, IntListsWithNulls) {
  ExprTestTable t;
  t.AddInt("i", {1, 2, 3, std::nullopt});
  t.AddInt("j", {1, 1, 1, 1});
  EXPECT_EQ(t.Eval("i in (1, 3)"), "TFTN");
  EXPECT_EQ(t.Eval("i not in (1, 3)"), "FTFN");
  EXPECT_EQ(t.Eval("i in (1, null)"), "TNNN");      // SQL: no match + null item = null
  EXPECT_EQ(t.Eval("i not in (1, null)"), "FNNN");
  EXPECT_EQ(t.Eval("i in (null)"), "NNNN");
  EXPECT_EQ(t.Eval("i in (2.0, -7)"), "FTFN");
  EXPECT_EQ(t.Eval("i in (10, 11, 12, 13, 14, 15, 16, 17, 18, 3, 1)"), "TFTN");
  EXPECT_EQ(t.Eval("i not in (10, 11, 12, 13, 14, 15, 16, 17, 18, 3, null)"), "NNFN");
  EXPECT_EQ(t.Eval("null in (1, 2)"), "NNNN");
  EXPECT_EQ(t.Eval("i + 1 in (2, 4)"), "TFTN");
  EXPECT_EQ(t.Error("i in (1.5)"), "i in (1.5): at offset 6: 'in' list item 1.5 does not fit int64");
  EXPECT_EQ(t.Error("i in ('1')"), "i in ('1'): at offset 6: 'in' list item '1' does not fit int64");
  EXPECT_EQ(t.Error("i in (1, j)"), "i in (1, j): at offset 9: items of an 'in' list must be literals");
  EXPECT_EQ(t.Error("i in (1, 1 + 1)"),
            "i in (1, 1 + 1): at offset 11: items of an 'in' list must be literals");
}

TEST(ExprInTest, OtherTypes) {
  ExprTestTable t;
  t.AddString("s", {"a", "b", "5", std::nullopt});
  t.AddFloat("f", {1.0, 2.5, kNaN, std::nullopt});
  t.AddBool("b", {true, false, true, std::nullopt});
  t.AddInt("d", {Day("2024-01-01"), Day("2024-01-02"), Day("2024-01-03"), std::nullopt},
           ValueType::kDate);
  t.AddInt("ts",
           {Micros("2024-01-01T00:00:00Z"), Micros("2024-01-01T00:00:01Z"),
            Micros("2024-01-02T00:00:00Z"), std::nullopt},
           ValueType::kTimestamp);
  EXPECT_EQ(t.Eval("s in ('a', 'c')"), "TFFN");
  EXPECT_EQ(t.Eval("s not in ('a', 'c', null)"), "FNNN");
  EXPECT_EQ(t.Eval("s in (5, 7)"), "NNTN");  // parsed as numbers; 'a' is not one
  EXPECT_EQ(t.Eval("f in (1, 2.5)"), "TTFN");
  EXPECT_EQ(t.Eval("f not in (1)"), "FTTN");
  EXPECT_EQ(t.Eval("b in (true)"), "TFTN");
  EXPECT_EQ(t.Eval("b not in (false, null)"), "NFNN");
  EXPECT_EQ(t.Eval("d in ('2024-01-01', '2024-01-03')"), "TFTN");
  EXPECT_EQ(t.Eval("d in ('2024-01-02T00:00:00Z')"), "FTFN");  // widened to timestamp
  EXPECT_EQ(t.Eval("ts in ('2024-01-02', '2024-01-01T00:00:01Z')"), "FTTN");
  EXPECT_EQ(t.Error("s in ('a', 1)"), "s in ('a', 1): at offset 11: 'in' list item 1 does not fit string");
  EXPECT_EQ(t.Error("b in (1)"), "b in (1): at offset 6: 'in' list item 1 does not fit bool");
  EXPECT_EQ(t.Error("d in ('soon')"), "d in ('soon'): at offset 6: 'soon' is not a date");
  EXPECT_EQ(t.Error("d in (3)"), "d in (3): at offset 6: 'in' list item 3 does not fit date");
  EXPECT_EQ(t.Error("f in ('x')"), "f in ('x'): at offset 6: 'in' list item 'x' does not fit float64");
}

TEST(ExprIsNullTest, TypeErrorsAreNull) {
  ExprTestTable t;
  t.AddInt("i", {1, 2, 3, std::nullopt});
  t.SetTypeErrors("i", {1});
  EXPECT_EQ(t.Eval("i is null"), "FTFT");
  EXPECT_EQ(t.Eval("i is not null"), "TFTF");
  EXPECT_EQ(t.Eval("i == 2"), "FNFN");
  EXPECT_EQ(t.Eval("i / 0 is null"), "TTTT");
  EXPECT_EQ(t.Eval("(i > 1) is not null"), "TFTF");
  EXPECT_EQ(t.Eval("null is null"), "TTTT");
  EXPECT_EQ(t.Eval("1 is not null"), "TTTT");
  EXPECT_EQ(t.Eval("'x' is null"), "FFFF");
  EXPECT_EQ(t.Eval("i + null is null"), "TTTT");
}

}  // namespace
}  // namespace griffin
