// The text report, for people: a verdict line, the run's numbers, then a table
// of checks with failing ones first, each failing check followed by a few of
// its violating rows. `color` adds ANSI colours (for terminals).
#pragma once

#include <string>

#include "report/report.h"

namespace griffin {

std::string ReportToText(const Report& report, bool color);

}  // namespace griffin
