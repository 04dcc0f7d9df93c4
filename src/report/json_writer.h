// Writes a Report as the JSON document of cli-and-report-v1 (field names and
// order as there; Griffin's extra fields follow the contract's ones).
#pragma once

#include <string>

#include "report/report.h"

namespace griffin {

std::string ReportToJson(const Report& report);

// Appends `text` as a JSON string literal (quoted, escaped; invalid UTF-8
// bytes become U+FFFD so the output is always valid JSON).
void AppendJsonString(std::string_view text, std::string* out);

}  // namespace griffin
