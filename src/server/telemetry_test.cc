#include "server/telemetry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "rules/rule_loader.h"

namespace griffin::server {
namespace {

TrainingRules Rules(const std::string& training) {
  auto rules = LoadRuleText("griffin: 1\ndataset: steps\ntraining:\n" + training, "r.yaml");
  EXPECT_TRUE(rules.ok()) << rules.status().message();
  return rules.ok() ? *rules->training : TrainingRules{};
}

TelemetryInput Loss(double loss, std::optional<int64_t> step = std::nullopt) {
  TelemetryInput input;
  input.loss_given = true;
  input.loss = loss;
  input.step = step;
  return input;
}

TEST(TelemetryTest, FiniteBoundsAndRequired) {
  TelemetryTracker tracker(10);
  TrainingRules rules = Rules(
      "  loss: {required: true, finite: true, min: 0, max: {value: 10, severity: warn}}\n"
      "  metrics:\n    grad_norm: {max: {value: 5, message: 'grad norm {value} exploded'}}\n");
  TelemetryVerdict ok = tracker.Check(rules, "k", Loss(1.5));
  EXPECT_EQ(ok.evaluated, 3);  // required, finite, min (max is warn)
  EXPECT_EQ(ok.failed, 0);
  EXPECT_EQ(ok.score(), 1.0);
  EXPECT_TRUE(ok.reasons.empty());

  TelemetryVerdict nan = tracker.Check(rules, "k", Loss(std::nan("")));
  EXPECT_EQ(nan.failed, 2);  // finite and min (NaN fails bounds)
  EXPECT_EQ(nan.reasons, (std::vector<std::string>{"loss.finite: loss is nan", "loss.min: loss nan fails min 0",
                                                   "loss.max: loss nan fails max 10 (warn)"}));
  EXPECT_DOUBLE_EQ(nan.score(), 1.0 / 3.0);

  TelemetryVerdict missing = tracker.Check(rules, "k", TelemetryInput{});
  EXPECT_EQ(missing.evaluated, 1);
  EXPECT_EQ(missing.reasons, (std::vector<std::string>{"loss.required: no loss reported"}));

  TelemetryInput grad = Loss(2);
  grad.metrics["grad_norm"] = 7.5;
  TelemetryVerdict exploded = tracker.Check(rules, "k", grad);
  EXPECT_EQ(exploded.evaluated, 4);
  EXPECT_EQ(exploded.reasons, (std::vector<std::string>{"metrics.grad_norm.max: grad norm 7.5 exploded"}));
  EXPECT_EQ(tracker.Check(TrainingRules{}, "k", Loss(std::nan(""))).evaluated, 0);
}

TEST(TelemetryTest, SpikesOverAMovingWindow) {
  TelemetryTracker tracker(10);
  TrainingRules rules = Rules("  loss: {spike: {sigma: 4, window: 5, min_history: 3}}\n");
  // Too little history: the check does not apply.
  EXPECT_EQ(tracker.Check(rules, "k", Loss(1.0, 0)).evaluated, 0);
  EXPECT_EQ(tracker.Check(rules, "k", Loss(1.2, 1)).evaluated, 0);
  EXPECT_EQ(tracker.Check(rules, "k", Loss(0.8, 2)).evaluated, 0);  // 2 values of history, 3 needed
  TelemetryVerdict spike = tracker.Check(rules, "k", Loss(9.0, 3));  // mean 1.0, sd 0.2: z = 40
  EXPECT_EQ(spike.failed, 1);
  ASSERT_EQ(spike.reasons.size(), 1u);
  EXPECT_EQ(spike.reasons[0], "loss.spike: loss 9 is 40 sd above the mean 1 of the last 3 steps (sigma 4)");
  // A retry of step 3 replaces its value instead of adding to the history.
  EXPECT_EQ(tracker.Check(rules, "k", Loss(1.1, 3)).failed, 0);
  // Other series keys have their own history.
  EXPECT_EQ(tracker.Check(rules, "other", Loss(9.0, 3)).evaluated, 0);
  // A smaller step starts over (a restarted job).
  EXPECT_EQ(tracker.Check(rules, "k", Loss(50.0, 0)).evaluated, 0);
  EXPECT_EQ(tracker.Check(rules, "k", Loss(std::numeric_limits<double>::infinity(), 1)).evaluated, 0);
}

TEST(TelemetryTest, SpikeDirectionsAndTheWindowLength) {
  TelemetryTracker tracker(10);
  TrainingRules down = Rules("  loss: {spike: {sigma: 2, window: 3, direction: down}}\n");
  for (int step = 0; step < 10; ++step) (void)tracker.Check(down, "k", Loss(step % 2 == 0 ? 1.0 : 2.0, step));
  EXPECT_EQ(tracker.Check(down, "k", Loss(100.0, 10)).failed, 0);   // up is not a spike here
  TelemetryVerdict fell = tracker.Check(down, "k", Loss(-100.0, 11));
  EXPECT_EQ(fell.failed, 1);
  ASSERT_EQ(fell.reasons.size(), 1u);
  EXPECT_NE(fell.reasons[0].find("sd below the mean"), std::string::npos) << fell.reasons[0];
  // A constant history has no spread: no spike can be measured.
  TrainingRules up = Rules("  loss: {spike: {sigma: 2, window: 4}}\n");
  for (int step = 0; step < 6; ++step) (void)tracker.Check(up, "c", Loss(1.0, step));
  EXPECT_EQ(tracker.Check(up, "c", Loss(5.0, 6)).evaluated, 0);
}

TEST(TelemetryTest, SeriesAreBounded) {
  TelemetryTracker tracker(3);
  TrainingRules rules = Rules("  loss: {spike: {sigma: 4, window: 5}}\n");
  for (int i = 0; i < 10; ++i) (void)tracker.Check(rules, "k" + std::to_string(i), Loss(1.0, 0));
  EXPECT_EQ(tracker.series(), 3u);
}

}  // namespace
}  // namespace griffin::server
