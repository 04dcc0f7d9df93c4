#include "profile/drift.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "profile/profile_facts.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

bool IsNumeric(ValueType type) { return type == ValueType::kInt64 || type == ValueType::kFloat64; }
bool IsTemporal(ValueType type) { return type == ValueType::kDate || type == ValueType::kTimestamp; }

// The finite values of a column's number (or time) sketch, with weights.
template <typename T>
void Extremes(const QuantileSketch<T>& sketch, double* lo, double* hi) {
  sketch.ForEachWeighted([&](T value, int64_t) {
    const double x = static_cast<double>(value);
    if (!std::isfinite(x)) return;
    *lo = std::min(*lo, x);
    *hi = std::max(*hi, x);
  });
}

template <typename T>
std::vector<double> Binned(const QuantileSketch<T>& sketch, double lo, double width) {
  std::vector<double> bins(kDriftBins, 0.0);
  sketch.ForEachWeighted([&](T value, int64_t weight) {
    const double x = static_cast<double>(value);
    if (!std::isfinite(x)) return;
    int bin = width > 0 ? static_cast<int>((x - lo) / width) : 0;
    bins[static_cast<size_t>(std::clamp(bin, 0, kDriftBins - 1))] += static_cast<double>(weight);
  });
  return bins;
}

std::vector<double> Shares(const std::vector<double>& counts) {
  double total = 0;
  for (double c : counts) total += c;
  std::vector<double> shares(counts.size(), 0.0);
  if (total > 0)
    for (size_t i = 0; i < counts.size(); ++i) shares[i] = counts[i] / total;
  return shares;
}

void KeepLargestMoves(std::vector<DriftMove>* moves) {
  std::stable_sort(moves->begin(), moves->end(), [](const DriftMove& a, const DriftMove& b) {
    return std::abs(a.current_share - a.baseline_share) > std::abs(b.current_share - b.baseline_share);
  });
  if (moves->size() > kDriftMovesListed) moves->resize(kDriftMovesListed);
}

// The kDriftDistributionListed values with the largest share on either
// side, largest first, and the others summed as "(rest)".
std::vector<DriftMove> MostCommon(std::vector<DriftMove> values) {
  std::stable_sort(values.begin(), values.end(), [](const DriftMove& a, const DriftMove& b) {
    return std::max(a.baseline_share, a.current_share) > std::max(b.baseline_share, b.current_share);
  });
  if (values.size() <= kDriftDistributionListed) return values;
  DriftMove rest{"(rest)", 0, 0};
  for (size_t i = kDriftDistributionListed; i < values.size(); ++i) {
    rest.baseline_share += values[i].baseline_share;
    rest.current_share += values[i].current_share;
  }
  values.resize(kDriftDistributionListed);
  values.push_back(rest);
  return values;
}

template <typename T>
void NumericDrift(const QuantileSketch<T>& baseline, const QuantileSketch<T>& current, ValueType type,
                  ColumnDrift* drift) {
  double lo = INFINITY, hi = -INFINITY;
  Extremes(baseline, &lo, &hi);
  Extremes(current, &lo, &hi);
  if (!(lo <= hi)) {
    drift->note = "no finite values to compare";
    return;
  }
  const double width = (hi - lo) / kDriftBins;
  const std::vector<double> p = Binned(baseline, lo, width), q = Binned(current, lo, width);
  drift->measure = "js";
  drift->value = JensenShannon(p, q);
  const std::vector<double> ps = Shares(p), qs = Shares(q);
  for (int i = 0; i < kDriftBins; ++i) {
    const double a = lo + width * i, b = i + 1 == kDriftBins ? hi : lo + width * (i + 1);
    const auto text = [&](double x) {
      return IsTemporal(type) ? FormatTime(static_cast<int64_t>(x), type) : FormatDoubleBrief(x);
    };
    drift->moved.push_back({"[" + text(a) + ", " + text(b) + (i + 1 == kDriftBins ? "]" : ")"),
                            ps[static_cast<size_t>(i)], qs[static_cast<size_t>(i)]});
  }
  drift->distribution = drift->moved;
  KeepLargestMoves(&drift->moved);
}

void CategoricalDrift(const ColumnState& baseline, const ColumnState& current, ColumnDrift* drift) {
  std::map<std::string, std::pair<double, double>> shares;  // value -> (baseline, current)
  const auto add = [&](const ColumnState& c, bool is_current) {
    const double values = static_cast<double>(c.values());
    double listed = 0;
    for (const TopValues::Entry& entry : c.top_values().Top(c.top_values().size())) {
      auto& share = shares[entry.value];
      (is_current ? share.second : share.first) += static_cast<double>(entry.count) / values;
      listed += static_cast<double>(entry.count);
    }
    if (listed < values) {
      auto& other = shares["(other)"];
      (is_current ? other.second : other.first) += (values - listed) / values;
    }
  };
  add(baseline, false);
  add(current, true);
  drift->measure = "linf";
  double worst = 0;
  for (const auto& [value, share] : shares) {
    worst = std::max(worst, std::abs(share.second - share.first));
    drift->moved.push_back({value, share.first, share.second});
  }
  drift->value = worst;
  drift->distribution = MostCommon(drift->moved);
  KeepLargestMoves(&drift->moved);
}

}  // namespace

double JensenShannon(const std::vector<double>& p_counts, const std::vector<double>& q_counts) {
  const std::vector<double> p = Shares(p_counts), q = Shares(q_counts);
  double divergence = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    const double m = (p[i] + q[i]) / 2;
    if (p[i] > 0) divergence += 0.5 * p[i] * std::log2(p[i] / m);
    if (q[i] > 0) divergence += 0.5 * q[i] * std::log2(q[i] / m);
  }
  return std::clamp(divergence, 0.0, 1.0);
}

ColumnDrift ColumnDriftOf(const std::string& column, const ColumnState& baseline, const ColumnState& current) {
  ColumnDrift drift;
  drift.column = column;
  if (baseline.values() == 0 || current.values() == 0) {
    drift.note = baseline.values() == 0 ? "no values in the baseline" : "no values in the current data";
    return drift;
  }
  const ValueType before = InferType(baseline).type, now = InferType(current).type;
  if (IsNumeric(before) && IsNumeric(now)) NumericDrift(baseline.number_sketch(), current.number_sketch(), now, &drift);
  else if (IsTemporal(before) && IsTemporal(now)) NumericDrift(baseline.time_sketch(), current.time_sketch(), now, &drift);
  else if (!IsNumeric(before) && !IsTemporal(before) && !IsNumeric(now) && !IsTemporal(now))
    CategoricalDrift(baseline, current, &drift);
  else
    drift.note = std::string("the type changed: ") + ValueTypeName(before) + " in the baseline, " +
                 ValueTypeName(now) + " now";
  return drift;
}

std::vector<ColumnDrift> CompareProfiles(const TableProfile& baseline, const TableProfile& current) {
  std::vector<ColumnDrift> drifts;
  const auto find = [](const TableProfile& profile, const std::string& name) -> const ColumnState* {
    for (const auto& [column, state] : profile.columns())
      if (column == name) return &state;
    return nullptr;
  };
  for (const auto& [name, state] : current.columns()) {
    const ColumnState* before = find(baseline, name);
    if (before == nullptr) {
      ColumnDrift drift;
      drift.column = name;
      drift.note = "not in the baseline";
      drifts.push_back(std::move(drift));
      continue;
    }
    drifts.push_back(ColumnDriftOf(name, *before, state));
  }
  for (const auto& [name, state] : baseline.columns()) {
    if (find(current, name) != nullptr) continue;
    ColumnDrift drift;
    drift.column = name;
    drift.note = "not in the current data";
    drifts.push_back(std::move(drift));
  }
  return drifts;
}

}  // namespace griffin
