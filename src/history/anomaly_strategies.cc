#include "history/anomaly_strategies.h"

#include <cmath>
#include <limits>

namespace griffin {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

bool Within(double value, const AnomalyVerdict& verdict) {
  if (std::isnan(value)) return false;
  if (verdict.lower && value < *verdict.lower) return false;
  if (verdict.upper && value > *verdict.upper) return false;
  return true;
}

void JudgeChange(const AnomalyCheck& check, double value, double previous, AnomalyVerdict* verdict) {
  const bool relative = check.strategy == AnomalyCheck::Strategy::kRelativeChange;
  const double scale = relative ? std::fabs(previous) : 1.0;
  if (check.max_increase) verdict->upper = previous + *check.max_increase * scale;
  if (check.max_decrease) verdict->lower = previous - *check.max_decrease * scale;
  const double delta = value - previous;
  if (!relative) verdict->change = delta;
  else if (previous != 0) verdict->change = delta / std::fabs(previous);
  else verdict->change = delta == 0 ? 0.0 : delta > 0 ? kInfinity : -kInfinity;
}

void JudgeZScore(const AnomalyCheck& check, double value, const std::vector<double>& values, AnomalyVerdict* verdict) {
  // Welford: the sample mean and variance in one pass.
  double mean = 0, m2 = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    const double delta = values[i] - mean;
    mean += delta / static_cast<double>(i + 1);
    m2 += delta * (values[i] - mean);
  }
  const double stddev = std::sqrt(m2 / static_cast<double>(values.size() - 1));
  verdict->expected = mean;
  verdict->stddev = stddev;
  verdict->lower = mean - check.max_z * stddev;
  verdict->upper = mean + check.max_z * stddev;
  if (stddev > 0) verdict->z = (value - mean) / stddev;
  else verdict->z = value == mean ? 0.0 : value > mean ? kInfinity : -kInfinity;
}

}  // namespace

const char* AnomalyStrategyName(AnomalyCheck::Strategy strategy) {
  switch (strategy) {
    case AnomalyCheck::Strategy::kRelativeChange: return "relative_change";
    case AnomalyCheck::Strategy::kAbsoluteChange: return "absolute_change";
    case AnomalyCheck::Strategy::kZScore: return "z_score";
  }
  return "?";
}

int HistoryNeeded(const AnomalyCheck& check) {
  const int64_t values = check.strategy == AnomalyCheck::Strategy::kZScore ? check.window : 1;
  return static_cast<int>(values * check.season);
}

AnomalyVerdict JudgeAnomaly(const AnomalyCheck& check, double value, const std::vector<double>& history) {
  AnomalyVerdict verdict;
  const size_t season = static_cast<size_t>(check.season);
  const size_t wanted = static_cast<size_t>(check.strategy == AnomalyCheck::Strategy::kZScore ? check.window : 1);
  std::vector<double> values;
  for (size_t index = season - 1; index < history.size() && values.size() < wanted; index += season) {
    verdict.used.push_back(index);
    values.push_back(history[index]);
  }
  const size_t needed = check.strategy == AnomalyCheck::Strategy::kZScore ? static_cast<size_t>(check.min_history) : 1;
  if (values.size() < needed) {
    const std::string apart = season > 1 ? " " + std::to_string(season) + " runs apart" : "";
    verdict.note = "too little history: " + std::to_string(values.size()) + " earlier value" +
                   (values.size() == 1 ? "" : "s") + apart + ", " + AnomalyStrategyName(check.strategy) +
                   " needs " + std::to_string(needed) + "; nothing to judge yet";
    verdict.used.clear();
    return verdict;
  }
  verdict.judged = true;
  if (check.strategy == AnomalyCheck::Strategy::kZScore) {
    JudgeZScore(check, value, values, &verdict);
  } else {
    verdict.expected = values.front();
    JudgeChange(check, value, values.front(), &verdict);
  }
  verdict.passed = Within(value, verdict);
  return verdict;
}

}  // namespace griffin
