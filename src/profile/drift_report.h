// `griffin drift`'s output: the per-column drift (drift.h) as JSON or text,
// with a pass verdict per column when a maximum is given.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "profile/drift.h"

namespace griffin {

struct DriftReport {
  std::string baseline, current;   // what was compared (paths)
  std::optional<double> max;        // a column fails when its value exceeds it
  std::vector<ColumnDrift> columns;
  // False when some column's value exceeds `max`.
  bool passed() const;
};

std::string DriftToJson(const DriftReport& report);
// [{"value": label, "baseline_share": .., "current_share": ..}, ...]: the
// values or bins that moved most, as `griffin drift` and drift checks list them.
void AppendDriftMovesJson(const std::vector<DriftMove>& moved, std::string* out);
std::string DriftToText(const DriftReport& report);

}  // namespace griffin
