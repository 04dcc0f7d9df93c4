// A one-line progress display on standard error for long runs in a terminal:
// silent for the first 1.5 s, then "rows, bytes read of total, MB/s", redrawn
// in place; Clear() erases it before the report is printed.
#pragma once

#include "exec/engine.h"

namespace griffin {

class ProgressLine {
 public:
  // Enabled only when `enabled` and standard error is a terminal.
  explicit ProgressLine(bool enabled);
  void Update(const Progress& progress);
  void Clear();

 private:
  bool enabled_;
  double quiet_seconds_;
  bool drawn_ = false;
};

}  // namespace griffin
