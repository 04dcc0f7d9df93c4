#include "server/telemetry.h"

#include <cmath>
#include <cstdio>

#include "util/value_parse.h"

namespace griffin::server {
namespace {

struct SpikeStats {
  bool applies = false;
  size_t steps = 0;  // history values compared with
  double mean = 0, sd = 0, z = 0;
};

// Mean and sample standard deviation of the history, and the value's z score.
SpikeStats SpikeOf(const std::deque<double>& history, const TelemetryCheck& check, double value) {
  SpikeStats stats;
  const size_t n = std::min(history.size(), static_cast<size_t>(check.window));
  if (static_cast<int64_t>(n) < check.min_history || n < 2) return stats;
  stats.steps = n;
  double sum = 0;
  for (size_t i = history.size() - n; i < history.size(); ++i) sum += history[i];
  stats.mean = sum / static_cast<double>(n);
  double squares = 0;
  for (size_t i = history.size() - n; i < history.size(); ++i) squares += (history[i] - stats.mean) * (history[i] - stats.mean);
  stats.sd = std::sqrt(squares / static_cast<double>(n - 1));
  if (!(stats.sd > 0)) return stats;  // a constant history: no scale to compare with
  stats.applies = true;
  stats.z = (value - stats.mean) / stats.sd;
  return stats;
}

bool IsSpike(const TelemetryCheck& check, double z) {
  switch (check.direction) {
    case SpikeDirection::kUp: return z > check.sigma;
    case SpikeDirection::kDown: return z < -check.sigma;
    case SpikeDirection::kBoth: return std::fabs(z) > check.sigma;
  }
  return false;
}

// The default message of a failed check ("loss 120 is above max 100").
std::string Describe(const TelemetrySeries& series, const TelemetryCheck& check, double value,
                     const SpikeStats& spike) {
  const std::string what = series.name;
  const std::string shown = FormatDouble(value);
  switch (check.kind) {
    case TelemetryCheckKind::kRequired: return "no " + what + " reported";
    case TelemetryCheckKind::kFinite: return what + " is " + shown;
    case TelemetryCheckKind::kMin:
      if (std::isnan(value)) return what + " nan fails min " + FormatDouble(check.bound);
      return what + " " + shown + " is below min " + FormatDouble(check.bound);
    case TelemetryCheckKind::kMax:
      if (std::isnan(value)) return what + " nan fails max " + FormatDouble(check.bound);
      return what + " " + shown + " is above max " + FormatDouble(check.bound);
    case TelemetryCheckKind::kSpike: {
      char z[32];
      std::snprintf(z, sizeof z, "%.3g", std::fabs(spike.z));
      return what + " " + shown + " is " + z + " sd " + (spike.z >= 0 ? "above" : "below") + " the mean " +
             FormatDouble(spike.mean) + " of the last " + std::to_string(spike.steps) +
             " steps (sigma " + FormatDouble(check.sigma) + ")";
    }
  }
  return what;
}

std::string Substitute(std::string message, const std::string& value) {
  const std::string token = "{value}";
  for (size_t at = message.find(token); at != std::string::npos; at = message.find(token, at + value.size()))
    message.replace(at, token.size(), value);
  return message;
}

}  // namespace

TelemetryTracker::Series& TelemetryTracker::SeriesFor(const std::string& series_key) {
  auto found = index_.find(series_key);
  if (found != index_.end()) {
    order_.splice(order_.begin(), order_, found->second);
    return found->second->second;
  }
  order_.emplace_front(series_key, Series{});
  index_.emplace(series_key, order_.begin());
  while (order_.size() > max_series_ && order_.size() > 1) {
    index_.erase(order_.back().first);
    order_.pop_back();
  }
  return order_.front().second;
}

size_t TelemetryTracker::series() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return order_.size();
}

TelemetryVerdict TelemetryTracker::Check(const TrainingRules& rules, const std::string& series_key,
                                         const TelemetryInput& input) {
  TelemetryVerdict verdict;
  std::lock_guard<std::mutex> lock(mutex_);
  Series& histories = SeriesFor(series_key);
  for (const TelemetrySeries& series : rules.series) {
    bool given = series.is_loss ? input.loss_given : input.metrics.count(series.name) > 0;
    const double value = !given ? 0 : series.is_loss ? input.loss : input.metrics.at(series.name);
    const TelemetryCheck* spike_check = nullptr;
    for (const TelemetryCheck& check : series.checks)
      if (check.kind == TelemetryCheckKind::kSpike) spike_check = &check;
    History* history = nullptr;
    if (spike_check != nullptr) {
      history = &histories[series.name];
      if (input.step && history->last_step) {
        if (*input.step == *history->last_step && !history->values.empty()) history->values.pop_back();
        else if (*input.step < *history->last_step) history->values.clear();
      }
      if (input.step) history->last_step = input.step;
    }
    for (const TelemetryCheck& check : series.checks) {
      bool applies = given, failed = false;
      SpikeStats spike;
      switch (check.kind) {
        case TelemetryCheckKind::kRequired: applies = true; failed = !given; break;
        case TelemetryCheckKind::kFinite: failed = !std::isfinite(value); break;
        case TelemetryCheckKind::kMin: failed = !(value >= check.bound); break;
        case TelemetryCheckKind::kMax: failed = !(value <= check.bound); break;
        case TelemetryCheckKind::kSpike:
          applies = given && std::isfinite(value);
          if (applies) spike = SpikeOf(history->values, check, value);
          applies = applies && spike.applies;
          failed = applies && IsSpike(check, spike.z);
          break;
      }
      if (!applies) continue;
      const bool is_error = check.options.severity == Severity::kError;
      if (is_error) ++verdict.evaluated;
      if (!failed) continue;
      if (is_error) ++verdict.failed;
      std::string text = check.options.message ? Substitute(*check.options.message, FormatDouble(value))
                                               : Describe(series, check, value, spike);
      verdict.reasons.push_back(series.CheckName(check) + ": " + text + (is_error ? "" : " (warn)"));
    }
    if (history != nullptr && given && std::isfinite(value)) {
      history->values.push_back(value);
      while (static_cast<int64_t>(history->values.size()) > spike_check->window) history->values.pop_front();
    }
  }
  return verdict;
}

}  // namespace griffin::server
