// Column checks through LoadRuleText: short and long forms, and every column error.
#include <gtest/gtest.h>

#include <cmath>

#include "rules/rule_loader_test_util.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

using testing::BodyError;
using testing::LoadBody;

// The one column of `body`, which must load.
ColumnRule OnlyColumn(const std::string& body) {
  Result<RuleSet> rules = LoadBody(body);
  EXPECT_TRUE(rules.ok()) << rules.status().message();
  if (!rules.ok() || rules->columns.size() != 1) return {};
  return rules->columns[0];
}

TEST(ColumnForms, ShortFormsInFileOrder) {
  ColumnRule column = OnlyColumn(
      "columns:\n"
      "  amount:\n"
      "    not_null: true\n"   // line 5
      "    min: 0\n"
      "    type: float64\n"
      "    max: 1e6\n"
      "    gt: -1.5\n"
      "    lt: .inf\n"
      "    finite: true\n"
      "    unique: true\n"
      "    in: [1, 2.5, nan]\n"
      "    not_in: [3]\n"
      "    required: false\n");
  EXPECT_EQ(column.name, "amount");
  EXPECT_EQ(column.type, ValueType::kFloat64);
  EXPECT_FALSE(column.required);
  EXPECT_EQ(column.location.line, 4);
  ASSERT_EQ(column.checks.size(), 10u);
  const ColumnCheckKind expected[] = {ColumnCheckKind::kNotNull, ColumnCheckKind::kMin,
                                      ColumnCheckKind::kType,    ColumnCheckKind::kMax,
                                      ColumnCheckKind::kGt,      ColumnCheckKind::kLt,
                                      ColumnCheckKind::kFinite,  ColumnCheckKind::kUnique,
                                      ColumnCheckKind::kIn,      ColumnCheckKind::kNotIn};
  for (size_t i = 0; i < column.checks.size(); ++i) {
    EXPECT_EQ(column.checks[i].kind, expected[i]) << i;
    EXPECT_EQ(column.checks[i].location.line, static_cast<int>(5 + i)) << i;
    EXPECT_EQ(column.checks[i].location.column, 5) << i;
    EXPECT_EQ(column.checks[i].options.severity, Severity::kError);
    EXPECT_EQ(column.checks[i].options.mostly, 1.0);
    EXPECT_FALSE(column.checks[i].options.message.has_value());
  }
  EXPECT_EQ(column.checks[1].bound.kind, Literal::Kind::kFloat);
  EXPECT_EQ(column.checks[1].bound.float_value, 0.0);
  EXPECT_EQ(column.checks[1].bound.text, "0");
  EXPECT_EQ(column.checks[3].bound.float_value, 1e6);
  EXPECT_EQ(column.checks[4].bound.float_value, -1.5);
  EXPECT_TRUE(std::isinf(column.checks[5].bound.float_value));
  ASSERT_EQ(column.checks[8].values.size(), 3u);
  EXPECT_EQ(column.checks[8].values[0].kind, Literal::Kind::kFloat);
  EXPECT_EQ(column.checks[8].values[1].float_value, 2.5);
  EXPECT_TRUE(std::isnan(column.checks[8].values[2].float_value));
  EXPECT_EQ(column.checks[9].values[0].float_value, 3.0);
}

TEST(ColumnForms, LongForms) {
  ColumnRule column = OnlyColumn(
      "columns:\n"
      "  code:\n"
      "    type: {value: string, severity: warn, mostly: 0.5, message: not text}\n"
      "    not_null: {value: true, severity: warn}\n"
      "    unique: {value: true, mostly: 0.9}\n"
      "    regex: {pattern: '^[A-Z]+$', message: 'bad {value}'}\n"
      "    contains: {pattern: 'X', severity: error}\n"
      "    in: {values: [A, B], mostly: 0.25}\n"
      "    not_in: {values: ['']}\n"
      "    length: {min: 1, max: 64, severity: warn, mostly: 0.75, message: too long}\n");
  EXPECT_EQ(column.type, ValueType::kString);
  ASSERT_EQ(column.checks.size(), 8u);
  EXPECT_EQ(column.checks[0].kind, ColumnCheckKind::kType);
  EXPECT_EQ(column.checks[0].options.severity, Severity::kWarn);
  EXPECT_EQ(column.checks[0].options.mostly, 0.5);
  EXPECT_EQ(column.checks[0].options.message, "not text");
  EXPECT_EQ(column.checks[1].options.severity, Severity::kWarn);
  EXPECT_EQ(column.checks[2].options.mostly, 0.9);
  EXPECT_EQ(column.checks[3].pattern, "^[A-Z]+$");
  EXPECT_EQ(column.checks[3].options.message, "bad {value}");
  EXPECT_EQ(column.checks[4].kind, ColumnCheckKind::kContains);
  EXPECT_EQ(column.checks[4].pattern, "X");
  ASSERT_EQ(column.checks[5].values.size(), 2u);
  EXPECT_EQ(column.checks[5].values[1].kind, Literal::Kind::kString);
  EXPECT_EQ(column.checks[5].values[1].text, "B");
  EXPECT_EQ(column.checks[5].options.mostly, 0.25);
  EXPECT_EQ(column.checks[6].values[0].text, "");
  EXPECT_EQ(column.checks[7].kind, ColumnCheckKind::kLength);
  EXPECT_EQ(column.checks[7].length_min, 1);
  EXPECT_EQ(column.checks[7].length_max, 64);
  EXPECT_EQ(column.checks[7].options.severity, Severity::kWarn);
  EXPECT_EQ(column.checks[7].options.mostly, 0.75);
  EXPECT_EQ(column.checks[7].options.message, "too long");
}

TEST(ColumnForms, LongAndShortFormsAgree) {
  ColumnRule short_form = OnlyColumn("columns:\n  a: {type: int64, min: 3, in: [1, 2]}\n");
  ColumnRule long_form = OnlyColumn(
      "columns:\n  a: {type: {value: int64}, min: {value: 3}, in: {values: [1, 2]}}\n");
  ASSERT_EQ(short_form.checks.size(), 3u);
  ASSERT_EQ(long_form.checks.size(), 3u);
  EXPECT_EQ(short_form.checks[1].bound.kind, Literal::Kind::kInt);
  EXPECT_EQ(long_form.checks[1].bound.kind, Literal::Kind::kInt);
  EXPECT_EQ(long_form.checks[1].bound.int_value, 3);
  EXPECT_EQ(short_form.checks[2].values[1].int_value, long_form.checks[2].values[1].int_value);
}

TEST(ColumnForms, FalseFlagsAreNoChecks) {
  ColumnRule column = OnlyColumn("columns:\n  a: {not_null: false, unique: false}\n");
  EXPECT_TRUE(column.checks.empty());
  EXPECT_TRUE(OnlyColumn("columns:\n  a:\n").checks.empty());
}

TEST(ColumnForms, Int64BoundsMayBeFloats) {
  ColumnRule column = OnlyColumn("columns:\n  n: {type: int, min: 0.5, max: 10}\n");
  EXPECT_EQ(column.type, ValueType::kInt64);
  EXPECT_EQ(column.checks[1].bound.kind, Literal::Kind::kFloat);
  EXPECT_EQ(column.checks[1].bound.float_value, 0.5);
  EXPECT_EQ(column.checks[2].bound.kind, Literal::Kind::kInt);
  EXPECT_EQ(column.checks[2].bound.int_value, 10);
}

TEST(ColumnForms, DateAndTimestampBounds) {
  ColumnRule date = OnlyColumn(
      "columns:\n  d: {type: date, min: 2024-01-01, max: now, lt: '2024-06-01T12:00:00Z',"
      " in: [2024-02-29]}\n");
  EXPECT_EQ(date.checks[1].bound.kind, Literal::Kind::kDate);
  EXPECT_EQ(date.checks[1].bound.int_value, DaysFromCivil(2024, 1, 1));
  EXPECT_EQ(date.checks[2].bound.kind, Literal::Kind::kNow);
  EXPECT_EQ(date.checks[3].bound.kind, Literal::Kind::kTimestamp);
  EXPECT_EQ(date.checks[3].bound.int_value, *ParseTimestamp("2024-06-01T12:00:00Z"));
  EXPECT_EQ(date.checks[4].values[0].kind, Literal::Kind::kDate);
  EXPECT_EQ(date.checks[4].values[0].int_value, DaysFromCivil(2024, 2, 29));

  ColumnRule ts = OnlyColumn(
      "columns:\n  t: {type: timestamp, min: 2024-01-01, max: '2024-01-02 03:04:05+01:00'}\n");
  EXPECT_EQ(ts.checks[1].bound.kind, Literal::Kind::kTimestamp);
  EXPECT_EQ(ts.checks[1].bound.int_value, DaysFromCivil(2024, 1, 1) * 86400LL * 1000000);
  EXPECT_EQ(ts.checks[2].bound.int_value, *ParseTimestamp("2024-01-02T02:04:05Z"));
}

TEST(ColumnForms, FormatOption) {
  ColumnRule column =
      OnlyColumn("columns:\n  t: {min: 01/02/2024, format: '%d/%m/%Y', type: timestamp}\n");
  EXPECT_EQ(column.timestamp_format, "%d/%m/%Y");
  ASSERT_EQ(column.checks.size(), 2u);
  EXPECT_EQ(column.checks[0].bound.int_value, DaysFromCivil(2024, 2, 1) * 86400LL * 1000000);
}

TEST(ColumnForms, BoolValues) {
  ColumnRule column = OnlyColumn("columns:\n  b: {type: bool, in: [true, no, 1]}\n");
  EXPECT_EQ(column.checks[1].values[0].kind, Literal::Kind::kBool);
  EXPECT_EQ(column.checks[1].values[0].int_value, 1);
  EXPECT_EQ(column.checks[1].values[1].int_value, 0);
  EXPECT_EQ(column.checks[1].values[2].int_value, 1);
}

TEST(ColumnForms, ListForm) {
  Result<RuleSet> rules =
      LoadBody("columns:\n  - name: a\n    type: int64\n  - {name: b, not_null: true}\n");
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  ASSERT_EQ(rules->columns.size(), 2u);
  EXPECT_EQ(rules->columns[0].name, "a");
  EXPECT_EQ(rules->columns[0].location.line, 4);
  EXPECT_EQ(rules->columns[1].checks[0].kind, ColumnCheckKind::kNotNull);
  EXPECT_EQ(BodyError("columns:\n  - {type: int64}\n"), "r.yaml:4: columns[0]: missing name");
  EXPECT_EQ(BodyError("columns:\n  - {name: a}\n  - {name: a}\n"),
            "r.yaml:5: columns[1].name: column 'a' is declared twice");
}

TEST(ColumnErrors, UnknownKey) {
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: int64\n    minimum: 0\n"),
            "r.yaml:6: columns.a.minimum: unknown key (expected one of: type, required, format, "
            "not_null, unique, min, max, gt, lt, finite, regex, contains, in, not_in, length, drift)");
  EXPECT_EQ(BodyError("columns:\n  a:\n    min: {value: 0, level: warn}\n    type: int64\n"),
            "r.yaml:5: columns.a.min.level: unknown key (expected one of: value, severity, mostly, "
            "message)");
  EXPECT_EQ(BodyError("columns:\n  a:\n    regex: {value: 'x'}\n"),
            "r.yaml:5: columns.a.regex.value: unknown key (expected one of: pattern, severity, "
            "mostly, message)");
  EXPECT_EQ(BodyError("columns:\n  a:\n    length: {min: 1, mostli: 1}\n"),
            "r.yaml:5: columns.a.length.mostli: unknown key (expected one of: min, max, severity, "
            "mostly, message)");
}

TEST(ColumnErrors, UnknownType) {
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: integer\n"),
            "r.yaml:5: columns.a.type: unknown type 'integer' (expected one of: string, int64, "
            "float64, bool, date, timestamp)");
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: {value: int32}\n"),
            "r.yaml:5: columns.a.type.value: unknown type 'int32' (expected one of: string, "
            "int64, float64, bool, date, timestamp)");
}

TEST(ColumnErrors, WrongValueKinds) {
  EXPECT_EQ(BodyError("columns:\n  a:\n    not_null: yes\n"),
            "r.yaml:5: columns.a.not_null: expected true or false, found 'yes'");
  EXPECT_EQ(BodyError("columns:\n  a:\n    unique: [a]\n"),
            "r.yaml:5: columns.a.unique: expected true or false, found a list");
  EXPECT_EQ(BodyError("columns:\n  a:\n    in: A\n"),
            "r.yaml:5: columns.a.in: expected a list of values, found 'A'");
  EXPECT_EQ(BodyError("columns:\n  a:\n    in: []\n"), "r.yaml:5: columns.a.in: needs at least one value");
  EXPECT_EQ(BodyError("columns:\n  a:\n    in: [A, null]\n"),
            "r.yaml:5: columns.a.in[1]: expected a value, found nothing (null is not a value here)");
  EXPECT_EQ(BodyError("columns:\n  a:\n    regex: [x]\n"),
            "r.yaml:5: columns.a.regex: expected text, found a list");
  EXPECT_EQ(BodyError("columns:\n  a: 5\n"), "r.yaml:4: columns.a: expected a map of checks, found '5'");
  EXPECT_EQ(BodyError("columns:\n  a:\n    required: 1\n"),
            "r.yaml:5: columns.a.required: expected true or false, found '1'");
  EXPECT_EQ(BodyError("columns:\n  a:\n    min: {severity: warn}\n    type: float\n"),
            "r.yaml:5: columns.a.min: missing value");
  EXPECT_EQ(BodyError("columns:\n  a:\n    length: 5\n"),
            "r.yaml:5: columns.a.length: expected a map like {min: 1, max: 64}");
}

TEST(ColumnErrors, CheckDoesNotFitType) {
  EXPECT_EQ(BodyError("columns:\n  a:\n    min: 0\n"),
            "r.yaml:5: columns.a.min: min does not apply to string columns (the column has no "
            "type, so it is string: add a type)");
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: string\n    lt: 0\n"),
            "r.yaml:6: columns.a.lt: lt does not apply to string columns");
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: bool\n    max: 1\n"),
            "r.yaml:6: columns.a.max: max does not apply to bool columns");
  EXPECT_EQ(BodyError("columns:\n  a:\n    finite: true\n    type: int64\n"),
            "r.yaml:5: columns.a.finite: finite applies only to float64 columns, not int64");
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: int64\n    regex: '^1'\n"),
            "r.yaml:6: columns.a.regex: regex applies only to string columns, not int64");
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: date\n    contains: '1'\n"),
            "r.yaml:6: columns.a.contains: contains applies only to string columns, not date");
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: float64\n    length: {max: 3}\n"),
            "r.yaml:6: columns.a.length: length applies only to string columns, not float64");
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: int64\n    format: '%Y'\n"),
            "r.yaml:6: columns.a.format: format applies only to date and timestamp columns");
}

TEST(ColumnErrors, BadLiterals) {
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: int64\n    in: [1, 1.5]\n"),
            "r.yaml:6: columns.a.in[1]: '1.5' does not parse as int64");
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: bool\n    not_in: [maybe]\n"),
            "r.yaml:6: columns.a.not_in[0]: 'maybe' does not parse as bool");
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: date\n    in: [2023-02-29]\n"),
            "r.yaml:6: columns.a.in[0]: '2023-02-29' does not parse as date");
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: float64\n    min: ten\n"),
            "r.yaml:6: columns.a.min: 'ten' is not a number");
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: float64\n    max: nan\n"),
            "r.yaml:6: columns.a.max: nan is not a usable bound");
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: timestamp\n    min: yesterday\n"),
            "r.yaml:6: columns.a.min: 'yesterday' is not a date, a timestamp or now");
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: float64\n    gt: {value: [1]}\n"),
            "r.yaml:6: columns.a.gt.value: expected a single value, found a list");
}

TEST(ColumnErrors, LinesAreTheKeysOrTheListItems) {
  EXPECT_EQ(BodyError("columns:\n  a:\n    type:\n      int32\n"),
            "r.yaml:5: columns.a.type: unknown type 'int32' (expected one of: string, int64, "
            "float64, bool, date, timestamp)");
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: int64\n    in:\n      - 1\n      - x\n"),
            "r.yaml:8: columns.a.in[1]: 'x' does not parse as int64");
}

TEST(ColumnErrors, ContradictoryBoundsNameTheLaterKey) {
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: int64\n    min: 10\n    max: 0\n"),
            "r.yaml:7: columns.a.max: min 10 is greater than max 0 (min is on line 6)");
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: int64\n    max: 0\n    min: 10\n"),
            "r.yaml:7: columns.a.min: min 10 is greater than max 0 (max is on line 6)");
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: float64\n    gt: 5\n    lt: 5\n"),
            "r.yaml:7: columns.a.lt: gt 5 and lt 5 leave no value that can pass (gt is on line 6)");
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: float64\n    gt: 6\n    lt: 5\n"),
            "r.yaml:7: columns.a.lt: gt 6 and lt 5 leave no value that can pass (gt is on line 6)");
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: float64\n    min: 3\n    lt: {value: 3, "
                      "severity: warn}\n"),
            "r.yaml:7: columns.a.lt: min 3 and lt 3 leave no value that can pass (min is on line 6)");
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: float64\n    gt: 3\n    max: 3\n"),
            "r.yaml:7: columns.a.max: gt 3 and max 3 leave no value that can pass (gt is on line 6)");
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: int64\n    gt: 1\n    lt: 2\n"),
            "r.yaml:7: columns.a.lt: gt 1 and lt 2 leave no value that can pass (gt is on line 6)");
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: date\n    min: 2024-03-02\n    "
                      "max: 2024-03-01\n"),
            "r.yaml:7: columns.a.max: min 2024-03-02 is greater than max 2024-03-01 (min is on "
            "line 6)");
  EXPECT_EQ(BodyError("columns:\n  - name: a\n    type: int64\n    min: 1\n    max: 0\n"),
            "r.yaml:7: columns[0].max: min 1 is greater than max 0 (min is on line 6)");
}

TEST(ColumnErrors, BoundsThatLeaveSomethingLoad) {
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: int64\n    min: 5\n    max: 5\n"), "OK");
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: int64\n    gt: 1\n    lt: 3\n"), "OK");
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: float64\n    gt: 1\n    lt: 1.5\n"), "OK");
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: float64\n    min: 10\n    gt: 20\n"), "OK");
  EXPECT_EQ(BodyError("columns:\n  a:\n    type: timestamp\n    min: now\n"
                      "    max: 2000-01-01\n"),
            "OK");  // now is only known when a run starts
}

TEST(ColumnErrors, BadRegex) {
  EXPECT_EQ(BodyError("columns:\n  a:\n    regex: '^(ab'\n"),
            "r.yaml:5: columns.a.regex: bad regex: missing ): ^(ab");
  EXPECT_EQ(BodyError("columns:\n  a:\n    contains: {pattern: 'a**', severity: warn}\n"),
            "r.yaml:5: columns.a.contains.pattern: bad regex: bad repetition operator: **");
}

TEST(ColumnErrors, BadOptions) {
  EXPECT_EQ(BodyError("columns:\n  a:\n    not_null: {value: true, severity: fatal}\n"),
            "r.yaml:5: columns.a.not_null.severity: expected error or warn, found 'fatal'");
  EXPECT_EQ(BodyError("columns:\n  a:\n    not_null: {value: true, mostly: 1.01}\n"),
            "r.yaml:5: columns.a.not_null.mostly: must be between 0 and 1, found 1.01");
  EXPECT_EQ(BodyError("columns:\n  a:\n    not_null: {value: true, mostly: -0.1}\n"),
            "r.yaml:5: columns.a.not_null.mostly: must be between 0 and 1, found -0.1");
  EXPECT_EQ(BodyError("columns:\n  a:\n    length: {min: 5, max: 2}\n"),
            "r.yaml:5: columns.a.length: min is greater than max");
  EXPECT_EQ(BodyError("columns:\n  a:\n    length: {min: -1}\n"),
            "r.yaml:5: columns.a.length.min: expected a whole number >= 0");
  EXPECT_EQ(BodyError("columns:\n  a:\n    length: {severity: warn}\n"),
            "r.yaml:5: columns.a.length: needs min or max");
  EXPECT_EQ(BodyError("columns:\n  t:\n    type: timestamp\n    format: '%Y %Q'\n"),
            "r.yaml:6: columns.t.format: unsupported directive %Q (supported: %Y %m %d %H %M %S "
            "%f %z %j %b %e %p %I %y %T %F %%)");
}

}  // namespace
}  // namespace griffin
