// The JUnit XML report: one <testsuite> for the dataset, one <testcase> per
// check (a failing error check is a <failure>; a failing warn check is
// <system-out> only, since warnings never fail a run), plus a "schema" and a
// "quality_score" test case.
#pragma once

#include <string>

#include "report/report.h"

namespace griffin {

std::string ReportToJunit(const Report& report);

}  // namespace griffin
