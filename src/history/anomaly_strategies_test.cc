#include "history/anomaly_strategies.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace griffin {
namespace {

AnomalyCheck Relative(std::optional<double> max_increase, std::optional<double> max_decrease, int64_t season = 1) {
  AnomalyCheck check;
  check.strategy = AnomalyCheck::Strategy::kRelativeChange;
  check.max_increase = max_increase;
  check.max_decrease = max_decrease;
  check.season = season;
  return check;
}

AnomalyCheck ZScore(double max, int64_t window, int64_t min_history, int64_t season = 1) {
  AnomalyCheck check;
  check.strategy = AnomalyCheck::Strategy::kZScore;
  check.max_z = max;
  check.window = window;
  check.min_history = min_history;
  check.season = season;
  return check;
}

// A steady daily series with a jump at one run: every strategy should pass
// every run but the jump. History is given newest first, as the store does.
std::vector<double> NewestFirst(const std::vector<double>& series, size_t before) {
  return std::vector<double>(series.rbegin() + static_cast<long>(series.size() - before), series.rend());
}

TEST(AnomalyStrategies, RelativeChangeFlagsOnlyTheJump) {
  std::vector<double> series = {1000, 1040, 990, 1010, 1800, 1790};  // +78% at run 4, then steady
  const AnomalyCheck check = Relative(0.5, 0.3);
  for (size_t run = 1; run < series.size(); ++run) {
    AnomalyVerdict verdict = JudgeAnomaly(check, series[run], NewestFirst(series, run));
    ASSERT_TRUE(verdict.judged);
    EXPECT_EQ(verdict.passed, run != 4) << "run " << run;
  }
  AnomalyVerdict jump = JudgeAnomaly(check, 1800, {1010, 990});
  EXPECT_DOUBLE_EQ(*jump.expected, 1010);
  EXPECT_DOUBLE_EQ(*jump.upper, 1515);
  EXPECT_DOUBLE_EQ(*jump.lower, 707);
  EXPECT_NEAR(*jump.change, 790.0 / 1010.0, 1e-12);
  EXPECT_EQ(jump.used, std::vector<size_t>{0});
  // A drop beyond 30% fails; exactly 30% passes (the bounds are inclusive).
  EXPECT_FALSE(JudgeAnomaly(check, 690, {1000}).passed);
  EXPECT_TRUE(JudgeAnomaly(check, 700, {1000}).passed);
  EXPECT_TRUE(JudgeAnomaly(check, 1500, {1000}).passed);
  // Only one side bounded: the other is open.
  EXPECT_TRUE(JudgeAnomaly(Relative(0.1, std::nullopt), 1, {1000}).passed);
  EXPECT_FALSE(JudgeAnomaly(Relative(std::nullopt, 0.1), 1, {1000}).passed);
}

TEST(AnomalyStrategies, RelativeChangeFromZeroAndNegative) {
  AnomalyVerdict from_zero = JudgeAnomaly(Relative(0.5, 0.5), 3, {0});
  EXPECT_FALSE(from_zero.passed);
  EXPECT_TRUE(std::isinf(*from_zero.change));
  EXPECT_TRUE(JudgeAnomaly(Relative(0.5, 0.5), 0, {0}).passed);
  // The scale is |previous|: -100 to -160 is a 60% decrease.
  AnomalyVerdict negative = JudgeAnomaly(Relative(0.5, 0.5), -160, {-100});
  EXPECT_FALSE(negative.passed);
  EXPECT_DOUBLE_EQ(*negative.change, -0.6);
  EXPECT_FALSE(JudgeAnomaly(Relative(0.5, 0.5), std::nan(""), {1}).passed);
}

TEST(AnomalyStrategies, AbsoluteChange) {
  AnomalyCheck check = Relative(100, 50);
  check.strategy = AnomalyCheck::Strategy::kAbsoluteChange;
  EXPECT_TRUE(JudgeAnomaly(check, 1100, {1000}).passed);
  EXPECT_FALSE(JudgeAnomaly(check, 1101, {1000}).passed);
  EXPECT_TRUE(JudgeAnomaly(check, 950, {1000}).passed);
  AnomalyVerdict drop = JudgeAnomaly(check, 949, {1000});
  EXPECT_FALSE(drop.passed);
  EXPECT_DOUBLE_EQ(*drop.change, -51);
}

TEST(AnomalyStrategies, ZScoreOnANoisySeriesWithAKnownJump) {
  std::mt19937_64 random(7);
  std::normal_distribution<double> noise(100.0, 2.0);
  std::vector<double> series;
  for (int day = 0; day < 60; ++day) series.push_back(noise(random));
  series[45] = 130;  // 15 standard deviations: the one anomaly
  const AnomalyCheck check = ZScore(5, 30, 10);
  int flagged = 0;
  for (size_t run = 0; run < series.size(); ++run) {
    AnomalyVerdict verdict = JudgeAnomaly(check, series[run], NewestFirst(series, run));
    EXPECT_EQ(verdict.judged, run >= 10) << run;
    if (!verdict.judged) {
      EXPECT_NE(verdict.note.find("too little history"), std::string::npos);
      continue;
    }
    EXPECT_EQ(verdict.used.size(), std::min<size_t>(run, 30));
    if (!verdict.passed) {
      ++flagged;
      EXPECT_EQ(run, 45u);
      EXPECT_GT(*verdict.z, 5);
    }
  }
  EXPECT_EQ(flagged, 1);
}

TEST(AnomalyStrategies, ZScoreMatchesAnIndependentComputation) {
  const std::vector<double> history = {12, 10, 11, 13, 9, 100};  // newest first; the window is 5
  AnomalyVerdict verdict = JudgeAnomaly(ZScore(2, 5, 3), 16, history);
  ASSERT_TRUE(verdict.judged);
  // mean 11, sample variance (1+1+0+4+4)/4 = 2.5
  EXPECT_DOUBLE_EQ(*verdict.expected, 11);
  EXPECT_DOUBLE_EQ(*verdict.stddev, std::sqrt(2.5));
  EXPECT_NEAR(*verdict.z, 5 / std::sqrt(2.5), 1e-12);
  EXPECT_FALSE(verdict.passed);
  EXPECT_NEAR(*verdict.upper, 11 + 2 * std::sqrt(2.5), 1e-12);
  EXPECT_TRUE(JudgeAnomaly(ZScore(2, 5, 3), 14, history).passed);
  // No spread: only the mean itself passes (Deequ's OnlineNormalStrategy).
  EXPECT_TRUE(JudgeAnomaly(ZScore(3, 5, 2), 7, {7, 7, 7}).passed);
  AnomalyVerdict flat = JudgeAnomaly(ZScore(3, 5, 2), 8, {7, 7, 7});
  EXPECT_FALSE(flat.passed);
  EXPECT_TRUE(std::isinf(*flat.z));
}

TEST(AnomalyStrategies, SeasonalComparesTheSamePhase) {
  // A weekly pattern: weekends (phase 5, 6) are a tenth of weekdays.
  std::vector<double> series;
  for (int week = 0; week < 6; ++week)
    for (int day = 0; day < 7; ++day) series.push_back(day >= 5 ? 100.0 + week : 1000.0 + 3 * day + week);
  const AnomalyCheck plain = Relative(0.5, 0.3);
  const AnomalyCheck weekly = Relative(0.5, 0.3, 7);
  const AnomalyCheck weekly_z = ZScore(4, 4, 3, 7);
  int plain_flags = 0;
  for (size_t run = 7; run < series.size(); ++run) {
    const auto history = NewestFirst(series, run);
    plain_flags += !JudgeAnomaly(plain, series[run], history).passed;
    EXPECT_TRUE(JudgeAnomaly(weekly, series[run], history).passed) << run;
    AnomalyVerdict z = JudgeAnomaly(weekly_z, series[run], history);
    if (z.judged) {
      EXPECT_TRUE(z.passed) << run;
    }
  }
  EXPECT_GT(plain_flags, 0);  // every weekend start and end jumps run to run
  // A Saturday at weekday level is the anomaly, found against earlier Saturdays.
  std::vector<double> history = NewestFirst(series, 40);  // run 40 is week 5's Saturday
  AnomalyVerdict verdict = JudgeAnomaly(weekly_z, 1000, history);
  ASSERT_TRUE(verdict.judged);
  EXPECT_FALSE(verdict.passed);
  EXPECT_EQ(verdict.used, (std::vector<size_t>{6, 13, 20, 27}));
  EXPECT_DOUBLE_EQ(*verdict.expected, (104 + 103 + 102 + 101) / 4.0);
  // Seven runs back is needed for a seasonal change; fewer is too little history.
  AnomalyVerdict early = JudgeAnomaly(weekly, 1000, {1, 2, 3});
  EXPECT_FALSE(early.judged);
  EXPECT_NE(early.note.find("7 runs apart"), std::string::npos) << early.note;
  EXPECT_EQ(HistoryNeeded(weekly), 7);
  EXPECT_EQ(HistoryNeeded(weekly_z), 28);
}

}  // namespace
}  // namespace griffin
