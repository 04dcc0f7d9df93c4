#include "alerts/alert_message.h"

#include <gtest/gtest.h>

namespace griffin {
namespace {

Report FailedRun() {
  Report report;
  report.dataset = "orders";
  report.run_id = "0123456789abcdef";
  report.rows = 100;
  report.bad_rows = 20;
  report.quality_score = 0.8;
  report.passed = false;
  CheckReport drift;
  drift.name = "amount.drift";
  drift.check = "drift";
  drift.severity = "warn";
  drift.passed = false;
  drift.message = "amount drifted";
  CheckReport min;
  min.name = "amount.min";
  min.check = "min";
  min.severity = "error";
  min.passed = false;
  CheckReport fine;
  fine.name = "table.row_count.anomaly";
  fine.check = "anomaly";
  report.checks = {drift, min, fine};
  return report;
}

TEST(AlertMessage, EventsTheTargetWantsAndTheRunRaised) {
  AlertTarget all;
  const Report report = FailedRun();
  EXPECT_EQ(EventList(RaisedEvents(all, report, std::nullopt)), "failure,drift");
  EXPECT_EQ(EventList(RaisedEvents(all, report, 0.9)), "failure,score_drop,drift");
  EXPECT_EQ(EventList(RaisedEvents(all, report, 0.84)), "failure,drift");  // a drop of 0.04 < 0.05
  AlertTarget drift_only;
  drift_only.on = {AlertEvent::kDrift, AlertEvent::kAnomaly};
  EXPECT_EQ(EventList(RaisedEvents(drift_only, report, std::nullopt)), "drift");
  Report passed;
  passed.quality_score = 1;
  EXPECT_TRUE(RaisedEvents(all, passed, 1.0).empty());
  Report anomalous = passed;
  CheckReport anomaly;
  anomaly.check = "anomaly";
  anomaly.passed = false;
  anomalous.checks.push_back(anomaly);
  EXPECT_EQ(EventList(RaisedEvents(all, anomalous, std::nullopt)), "anomaly");
}

TEST(AlertMessage, JsonAndSlackBodies) {
  const Report report = FailedRun();
  const std::vector<AlertEvent> events = {AlertEvent::kFailure, AlertEvent::kScoreDrop};
  const std::string json = AlertBody(AlertTarget::Format::kJson, report, events, 0.9);
  EXPECT_NE(json.find("\"events\": [\"failure\", \"score_drop\"], \"dataset\": \"orders\", \"run_id\": "
                      "\"0123456789abcdef\", \"passed\": false, \"quality_score\": 0.8, \"previous_quality_score\": 0.9"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("{\"name\": \"amount.drift\", \"check\": \"drift\", \"severity\": \"warn\", \"message\": "
                      "\"amount drifted\"}"),
            std::string::npos);
  EXPECT_NE(json.find("\"failed_check_count\": 2}"), std::string::npos);
  const std::string slack = AlertBody(AlertTarget::Format::kSlack, report, events, 0.9);
  EXPECT_EQ(slack,
            "{\"text\": \"Griffin: dataset *orders* FAILED (run 01234567, failure,score_drop): quality score 0.8 "
            "(was 0.9), 20 bad of 100 rows\\n• amount.drift: amount drifted\\n• amount.min\"}");
}

TEST(AlertMessage, DedupKeyChangesWithWhatFailed) {
  Report report = FailedRun();
  const std::vector<AlertEvent> events = {AlertEvent::kFailure};
  const std::string key = AlertDedupKey("http://h/x", report, events);
  EXPECT_EQ(key.size(), 64u);
  EXPECT_EQ(key, AlertDedupKey("http://h/x", report, events));
  EXPECT_NE(key, AlertDedupKey("http://h/y", report, events));
  EXPECT_NE(key, AlertDedupKey("http://h/x", report, {AlertEvent::kDrift}));
  report.checks[1].passed = true;
  EXPECT_NE(key, AlertDedupKey("http://h/x", report, events));
}

}  // namespace
}  // namespace griffin
