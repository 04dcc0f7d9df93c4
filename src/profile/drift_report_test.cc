#include "profile/drift_report.h"

#include <gtest/gtest.h>

namespace griffin {
namespace {

DriftReport Report(std::optional<double> max) {
  DriftReport report;
  report.baseline = "train.state";
  report.current = "serve.csv";
  report.max = max;
  ColumnDrift kind;
  kind.column = "kind";
  kind.measure = "linf";
  kind.value = 0.3;
  kind.moved = {{"refund", 0.1, 0.4}};
  ColumnDrift gone;
  gone.column = "gone";
  gone.note = "not in the current data";
  report.columns = {kind, gone};
  return report;
}

TEST(DriftReportTest, AColumnAboveTheMaximumFailsTheReport) {
  EXPECT_TRUE(Report(std::nullopt).passed());
  EXPECT_TRUE(Report(0.3).passed());
  EXPECT_FALSE(Report(0.2).passed());
}

TEST(DriftReportTest, JsonAndTextNameTheValuesThatMovedMost) {
  const std::string json = DriftToJson(Report(0.2));
  EXPECT_NE(json.find("\"passed\": false"), std::string::npos);
  EXPECT_NE(json.find("{\"value\": \"refund\", \"baseline_share\": 0.1, \"current_share\": 0.4}"), std::string::npos);
  EXPECT_NE(json.find("\"note\": \"not in the current data\""), std::string::npos);
  const std::string text = DriftToText(Report(0.2));
  EXPECT_NE(text.find("kind  l-infinity 0.3  FAIL  most moved refund: 0.1 -> 0.4"), std::string::npos);
  EXPECT_NE(text.find("gone  not compared: not in the current data"), std::string::npos);
}

}  // namespace
}  // namespace griffin
