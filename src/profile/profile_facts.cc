#include "profile/profile_facts.h"

#include <cmath>

#include "util/value_parse.h"

namespace griffin {
namespace {

constexpr int64_t kMicrosPerDay = 86400LL * 1000000LL;

template <typename T>
std::vector<HistogramBin> Histogram(const QuantileSketch<T>& sketch, double min, double max) {
  if (sketch.count() == 0 || !std::isfinite(min) || !std::isfinite(max)) return {};
  const int bins = min == max ? 1 : kHistogramBins;
  std::vector<HistogramBin> out(static_cast<size_t>(bins));
  // In halves: max - min overflows to inf for values near ±1.8e308, and a
  // bin's position would then be inf / inf = NaN.
  const double half_width = (max / 2 - min / 2) / bins;
  auto edge = [&](int i) { return i == bins ? max : 2 * (min / 2 + half_width * i); };
  for (int i = 0; i < bins; ++i) {
    out[static_cast<size_t>(i)].lo = edge(i);
    out[static_cast<size_t>(i)].hi = edge(i + 1);
  }
  sketch.ForEachWeighted([&](T value, int64_t weight) {
    const double x = static_cast<double>(value);
    if (!std::isfinite(x)) return;
    // Clamped as a double before the cast: a value outside [min, max] (a
    // profile state read back damaged, found by profile_state_fuzz) must not
    // overflow int.
    const double at = half_width > 0 ? (x / 2 - min / 2) / half_width : 0.0;
    const int bin = !(at > 0) ? 0 : at >= bins - 1 ? bins - 1 : static_cast<int>(at);
    out[static_cast<size_t>(bin)].count += weight;
  });
  return out;
}

}  // namespace

InferredType InferType(const ColumnState& column) {
  const int64_t values = column.values();
  if (values == 0) return {ValueType::kString, 0.0};
  int best = -1;
  int64_t best_count = 0;
  for (int t = 0; t < kReadTypes; ++t) {
    const int64_t n = column.reads_as(static_cast<ReadType>(t));
    if (n > best_count) {
      best = t;
      best_count = n;
    }
  }
  const double share = static_cast<double>(best_count) / static_cast<double>(values);
  if (best >= 0 && share >= kInferShare) return {ValueTypeOf(static_cast<ReadType>(best)), share};
  int64_t typed = 0;  // values that read as some other type (each counted once)
  typed = std::max(column.reads_as(ReadType::kFloat64), column.reads_as(ReadType::kBool)) +
          column.reads_as(ReadType::kDate) + column.reads_as(ReadType::kTimestamp);
  return {ValueType::kString, 1.0 - std::min(1.0, static_cast<double>(typed) / static_cast<double>(values))};
}

std::string QuantileName(double level) { return "p" + std::to_string(static_cast<int>(std::lround(level * 100))); }

std::vector<HistogramBin> NumberHistogram(const ColumnState& column) {
  const NumberStats& n = column.numbers();
  if (n.finite == 0) return {};
  // The finite extremes: min/max include ±inf, the sketch's ends do not.
  double lo = n.min, hi = n.max;
  if (!std::isfinite(lo) || !std::isfinite(hi)) {
    lo = INFINITY;
    hi = -INFINITY;
    column.number_sketch().ForEachWeighted([&](double x, int64_t) {
      if (std::isfinite(x)) {
        lo = std::min(lo, x);
        hi = std::max(hi, x);
      }
    });
  }
  return Histogram(column.number_sketch(), lo, hi);
}

std::vector<HistogramBin> TimeHistogram(const ColumnState& column) {
  if (column.times() == 0) return {};
  return Histogram(column.time_sketch(), static_cast<double>(column.time_min()),
                   static_cast<double>(column.time_max()));
}

std::optional<double> NumberStddev(const NumberStats& numbers) {
  if (numbers.finite < 2) return std::nullopt;
  return std::sqrt(numbers.m2 / static_cast<double>(numbers.finite - 1));
}

std::string FormatTime(int64_t micros, ValueType column_type) {
  if (column_type == ValueType::kDate) {
    int64_t days = micros / kMicrosPerDay;
    if (micros % kMicrosPerDay < 0) --days;
    return FormatDate(days);
  }
  return FormatTimestamp(micros);
}

}  // namespace griffin
