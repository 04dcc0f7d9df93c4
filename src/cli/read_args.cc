#include "cli/read_args.h"

#include "io/input_format.h"

namespace griffin {

Status ApplyReadArgs(const std::string& input_format, const std::string& delimiter, bool no_header,
                     const std::vector<std::string>& null_values, ReadOptions* options) {
  if (!input_format.empty()) {
    options->format = ParseInputFormatName(input_format);
    if (!options->format) return Status::UsageError("--input-format: unknown format '" + input_format + "'");
  }
  if (!delimiter.empty()) {
    std::string d = delimiter == "\\t" || delimiter == "tab" ? "\t" : delimiter;
    if (d.size() != 1) return Status::UsageError("--delimiter: must be one character, got '" + delimiter + "'");
    if (d[0] == '\n' || d[0] == '\r') return Status::UsageError("--delimiter: cannot be a line break");
    options->delimiter = d[0];
  }
  if (no_header) options->header = false;
  if (!null_values.empty()) options->null_values = null_values;
  return Status::OK();
}

}  // namespace griffin
