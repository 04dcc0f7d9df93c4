// The `training:` section through LoadRuleText.
#include "rules/training_rule_loader.h"

#include <gtest/gtest.h>

#include "rules/rule_loader_test_util.h"

namespace griffin {
namespace {

using testing::BodyError;
using testing::LoadBody;

TEST(TrainingRules, LossAndMetricChecks) {
  Result<RuleSet> rules = LoadBody(
      "training:\n"                                                             // line 3
      "  loss:\n"
      "    required: true\n"
      "    finite: true\n"
      "    min: 0\n"
      "    max: {value: 100, severity: warn, message: loss is high}\n"
      "    spike: {sigma: 6, window: 50, direction: both}\n"                   // line 9
      "  metrics:\n"
      "    grad_norm: {finite: {value: true, severity: warn}, max: 1e3}\n"
      "    lr: {finite: false}\n"
      "  unknown_batch: neutral\n"
      "  min_score: 0.9\n");
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  ASSERT_TRUE(rules->training.has_value());
  const TrainingRules& training = *rules->training;
  ASSERT_EQ(training.series.size(), 3u);
  const TelemetrySeries& loss = training.series[0];
  EXPECT_TRUE(loss.is_loss);
  ASSERT_EQ(loss.checks.size(), 5u);
  EXPECT_EQ(loss.CheckName(loss.checks[0]), "loss.required");
  EXPECT_EQ(loss.checks[2].kind, TelemetryCheckKind::kMin);
  EXPECT_EQ(loss.checks[2].bound, 0.0);
  EXPECT_EQ(loss.checks[3].bound, 100.0);
  EXPECT_EQ(loss.checks[3].options.severity, Severity::kWarn);
  EXPECT_EQ(loss.checks[3].options.message, "loss is high");
  const TelemetryCheck& spike = loss.checks[4];
  EXPECT_EQ(spike.kind, TelemetryCheckKind::kSpike);
  EXPECT_EQ(spike.sigma, 6.0);
  EXPECT_EQ(spike.window, 50);
  EXPECT_EQ(spike.min_history, 10);  // min(window, 10) when not given
  EXPECT_EQ(spike.direction, SpikeDirection::kBoth);
  EXPECT_EQ(spike.location.line, 9);
  const TelemetrySeries& grad = training.series[1];
  EXPECT_FALSE(grad.is_loss);
  EXPECT_EQ(grad.name, "grad_norm");
  ASSERT_EQ(grad.checks.size(), 2u);
  EXPECT_EQ(grad.CheckName(grad.checks[1]), "metrics.grad_norm.max");
  EXPECT_EQ(grad.checks[0].options.severity, Severity::kWarn);
  EXPECT_TRUE(training.series[2].checks.empty());  // finite: false is no check
  EXPECT_EQ(training.unknown_batch, TrainingRules::UnknownBatch::kNeutral);
  EXPECT_EQ(training.min_score, 0.9);

  Result<RuleSet> none = LoadBody("columns: {a: {}}\n");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->training.has_value());
  Result<RuleSet> defaults = LoadBody("training:\n  loss: {spike: {sigma: 3, window: 4}}\n");
  ASSERT_TRUE(defaults.ok()) << defaults.status().message();
  EXPECT_EQ(defaults->training->unknown_batch, TrainingRules::UnknownBatch::kFail);
  EXPECT_EQ(defaults->training->series[0].checks[0].min_history, 4);
  EXPECT_EQ(defaults->training->series[0].checks[0].direction, SpikeDirection::kUp);
}

TEST(TrainingRules, Errors) {
  EXPECT_EQ(BodyError("training: [1]\n"),
            "r.yaml:3: training: expected a map with loss, metrics, unknown_batch, min_score, found a list");
  EXPECT_EQ(BodyError("training:\n  los: {}\n"),
            "r.yaml:4: training.los: unknown key (expected one of: loss, metrics, unknown_batch, min_score)");
  EXPECT_EQ(BodyError("training:\n  loss: {finit: true}\n"),
            "r.yaml:4: training.loss.finit: unknown key (expected one of: required, finite, min, max, spike)");
  EXPECT_EQ(BodyError("training:\n  loss: {max: abc}\n"),
            "r.yaml:4: training.loss.max: expected a number, found 'abc'");
  EXPECT_EQ(BodyError("training:\n  loss: {max: .inf}\n"),
            "r.yaml:4: training.loss.max: must be between -1.7976931348623157e+308 and 1.7976931348623157e+308, found .inf");
  EXPECT_EQ(BodyError("training:\n  loss: {min: 5, max: 1}\n"),
            "r.yaml:4: training.loss.max: min is greater than max");
  EXPECT_EQ(BodyError("training:\n  loss: {max: {value: 1, mostly: 0.5}}\n"),
            "r.yaml:4: training.loss.max.mostly: unknown key (expected one of: value, severity, message)");
  EXPECT_EQ(BodyError("training:\n  loss: {spike: {window: 10}}\n"),
            "r.yaml:4: training.loss.spike: missing sigma (standard deviations that make a spike)");
  EXPECT_EQ(BodyError("training:\n  loss: {spike: {sigma: 3}}\n"),
            "r.yaml:4: training.loss.spike: missing window (how many previous steps to compare with)");
  EXPECT_EQ(BodyError("training:\n  loss: {spike: {sigma: 0, window: 3}}\n"),
            "r.yaml:4: training.loss.spike.sigma: must be greater than 0");
  EXPECT_EQ(BodyError("training:\n  loss: {spike: {sigma: 2, window: 1}}\n"),
            "r.yaml:4: training.loss.spike.window: expected a whole number from 2 to 100000");
  EXPECT_EQ(BodyError("training:\n  loss: {spike: {sigma: 2, window: 5, min_history: 6}}\n"),
            "r.yaml:4: training.loss.spike: min_history (6) cannot exceed window (5)");
  EXPECT_EQ(BodyError("training:\n  loss: {spike: {sigma: 2, window: 5, direction: sideways}}\n"),
            "r.yaml:4: training.loss.spike.direction: expected up, down or both, found 'sideways'");
  EXPECT_EQ(BodyError("training:\n  unknown_batch: maybe\n"),
            "r.yaml:4: training.unknown_batch: expected fail or neutral, found 'maybe'");
  EXPECT_EQ(BodyError("training:\n  min_score: 2\n"),
            "r.yaml:4: training.min_score: must be between 0 and 1, found 2");
  EXPECT_EQ(BodyError("training:\n  metrics: {lr: 3}\n"),
            "r.yaml:4: training.metrics.lr: expected a map of checks, like {finite: true, max: 10}, found '3'");
}

}  // namespace
}  // namespace griffin
