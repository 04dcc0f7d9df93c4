#include "connectors/kafka/stream_window.h"

#include <gtest/gtest.h>

namespace griffin::kafka {
namespace {

Report Batch(int64_t rows, int64_t bad, int64_t evaluated, int64_t violations, int64_t violation_row) {
  Report report;
  report.dataset = "d";
  report.rows = rows;
  report.bad_rows = bad;
  CheckReport check;
  check.name = "n.min";
  check.check = "min";
  check.severity = "error";
  check.evaluated = evaluated;
  check.violations = violations;
  check.mostly = 0.9;
  report.checks.push_back(check);
  report.violations.push_back({violation_row, "n", "min", JsonScalar::Null(), "too small"});
  return report;
}

TEST(StreamWindow, SumsRowChecksAndNumbersRowsThroughTheWindow) {
  StreamWindow window("kafka://h:1/raw");
  EXPECT_TRUE(window.empty());
  window.Add(Batch(10, 1, 10, 1, 4), {{0, {100, 110}}});
  window.Add(Batch(10, 2, 10, 2, 3), {{0, {110, 115}}, {1, {7, 12}}});
  EXPECT_FALSE(window.empty());
  const Report& merged = window.merged();
  EXPECT_EQ(merged.rows, 20);
  EXPECT_EQ(merged.bad_rows, 3);
  EXPECT_DOUBLE_EQ(merged.quality_score, 17.0 / 20.0);
  ASSERT_EQ(merged.checks.size(), 1u);
  EXPECT_EQ(merged.checks[0].evaluated, 20);
  EXPECT_EQ(merged.checks[0].violations, 3);
  EXPECT_DOUBLE_EQ(merged.checks[0].pass_rate, 0.85);
  EXPECT_FALSE(merged.checks[0].passed);  // 0.85 < mostly 0.9, though each batch alone passed
  EXPECT_FALSE(merged.passed);
  ASSERT_EQ(merged.violations.size(), 2u);
  EXPECT_EQ(merged.violations[0].row, 4);
  EXPECT_EQ(merged.violations[1].row, 13);  // row 3 of the second batch
  EXPECT_EQ(window.OffsetRanges(), "p0:100-115 p1:7-12");
}

}  // namespace
}  // namespace griffin::kafka
