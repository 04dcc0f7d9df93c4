#include "exec/column_kernels.h"

#include <cmath>

#include <gtest/gtest.h>

#include "exec/column_converter.h"
#include "exec/test_batches.h"
#include "rules/rule_loader.h"

namespace griffin {
namespace {

// Compiles a one-column rule file and runs its checks over `values`.
struct Fixture {
  std::shared_ptr<const Plan> plan;
  std::shared_ptr<Batch> batch;
  BatchResult result;
};

Fixture RunColumn(const std::string& column_yaml, const std::vector<std::optional<std::string>>& values) {
  Fixture f;
  std::string text = "griffin: 1\ndataset: d\ncolumns:\n  x:\n" + column_yaml;
  auto rules = LoadRuleText(text, "r.yaml");
  EXPECT_TRUE(rules.ok()) << rules.status().message();
  f.plan = *Plan::Compile(*rules, 86400000000LL * 365);  // now = 1971-01-01
  f.batch = testing::TextBatch("x", values);
  f.result.checks.resize(f.plan->checks().size());
  f.result.unique_keys.resize(f.plan->checks().size());
  f.result.columns.resize(1);
  bool lossy = false;
  std::string message;
  const ColumnPlan& column = f.plan->columns()[0];
  ConvertColumn(*f.batch, &f.batch->columns[0], {column.type, column.timestamp_format}, &f.result.columns[0],
                &lossy, &message);
  RunColumnChecks(column, f.result.columns[0], *f.batch, &f.result);
  return f;
}

std::vector<int32_t> Rows(const Fixture& f, int check) { return f.result.checks[check].rows; }

TEST(ColumnKernelsTest, FloatBoundsAndFinite) {
  auto f = RunColumn("    type: float64\n    min: 0\n    lt: 10\n    finite: true\n",
                     {"1", "-1", "nan", "10", "inf", std::nullopt, "x"});
  // checks: type(0) min(1) lt(2) finite(3)
  EXPECT_EQ(Rows(f, 0), (std::vector<int32_t>{6}));
  EXPECT_EQ(Rows(f, 1), (std::vector<int32_t>{1, 2}));     // NaN fails min
  EXPECT_EQ(Rows(f, 2), (std::vector<int32_t>{2, 3, 4}));  // NaN fails lt, 10 !< 10, inf
  EXPECT_EQ(Rows(f, 3), (std::vector<int32_t>{2, 4}));
  EXPECT_EQ(f.result.checks[1].evaluated, 5);               // null and mistyped skipped
  EXPECT_EQ(f.result.checks[0].evaluated, 7);
}

TEST(ColumnKernelsTest, IntegerColumnWithFractionalBounds) {
  auto f = RunColumn("    type: int64\n    gt: 0.5\n    max: 2.5\n", {"0", "1", "2", "3"});
  EXPECT_EQ(Rows(f, 1), (std::vector<int32_t>{0}));
  EXPECT_EQ(Rows(f, 2), (std::vector<int32_t>{3}));
}

TEST(ColumnKernelsTest, RegexIsFullMatchContainsIsPartial) {
  auto f = RunColumn("    regex: '[a-z]+'\n    contains: 'b'\n", {"abc", "abc1", "xyz", std::nullopt});
  EXPECT_EQ(Rows(f, 0), (std::vector<int32_t>{1}));  // "" is null by default null_values
  EXPECT_EQ(Rows(f, 1), (std::vector<int32_t>{2}));
}

TEST(ColumnKernelsTest, InListsAreTyped) {
  auto f = RunColumn("    type: float64\n    in: [1, 2.5]\n", {"1.0", "2.50", "3", "-0"});
  EXPECT_EQ(Rows(f, 1), (std::vector<int32_t>{2, 3}));
  auto s = RunColumn("    not_in: [A, B]\n", {"A", "a", "B "});
  EXPECT_EQ(Rows(s, 0), (std::vector<int32_t>{0}));  // strings keep spaces: "B " is not B
}

TEST(ColumnKernelsTest, LengthCountsCodePoints) {
  auto f = RunColumn("    length: {min: 2, max: 3}\n", {"ab", "\xC3\xA9\xC3\xA9\xC3\xA9", "a", "abcd"});
  EXPECT_EQ(Rows(f, 0), (std::vector<int32_t>{2, 3}));
}

TEST(ColumnKernelsTest, NotNullCountsTypeFailuresAsNull) {
  auto f = RunColumn("    type: int64\n    not_null: true\n", {"1", std::nullopt, "1.5"});
  EXPECT_EQ(Rows(f, 1), (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(f.result.checks[1].evaluated, 3);
}

TEST(ColumnKernelsTest, DateBoundsAgainstNow) {
  auto f = RunColumn("    type: date\n    max: now\n", {"1970-12-31", "1971-01-01", "1971-01-02"});
  EXPECT_EQ(Rows(f, 1), (std::vector<int32_t>{2}));
}

TEST(ColumnKernelsTest, UniqueGathersKeysOfValidRows) {
  auto f = RunColumn("    type: float64\n    unique: true\n", {"0", "-0", std::nullopt, "nan", "NaN"});
  const UniqueKeys& keys = f.result.unique_keys[1];
  EXPECT_EQ(keys.rows, (std::vector<int32_t>{0, 1, 3, 4}));
  const TypedColumn& column = f.result.columns[0];
  char a[8], b[8];
  EXPECT_EQ(ValueKey(column, 0, a), ValueKey(column, 1, b));  // -0.0 == 0.0
  EXPECT_EQ(ValueKey(column, 3, a), ValueKey(column, 4, b));  // NaN == NaN
  EXPECT_NE(ValueKey(column, 0, a), ValueKey(column, 3, b));
  EXPECT_EQ(NumericKey(column, 0), NumericKey(column, 1));
  EXPECT_EQ(NumericKey(column, 3), NumericKey(column, 4));
  EXPECT_NE(NumericKey(column, 0), NumericKey(column, 3));
  EXPECT_TRUE(keys.hashes.empty());  // numeric keys are hashed by the merger's IntKeySet
  EXPECT_EQ(f.result.checks[1].evaluated, 4);
}

}  // namespace
}  // namespace griffin
