// Reads a JSON report (as written by ReportToJson) back into a Report, so a
// stored run can be shown again in any format (`griffin show`).
#pragma once

#include <string>

#include "report/report.h"
#include "util/status.h"

namespace griffin {

// Errors: InputError naming `source` when the text is not a Griffin report.
Result<Report> ReportFromJson(const std::string& json, const std::string& source);

}  // namespace griffin
