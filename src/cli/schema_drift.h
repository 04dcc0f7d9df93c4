// Compares an input's schema with the one cached by an earlier run of the same
// rules (the run store's schema cache), in words for the report:
//   "data/in.csv: column 'z' added", "...: column 'a' removed",
//   "...: column 'b' changed type from int64 to string"
#pragma once

#include <string>
#include <vector>

namespace griffin {

// `before` and `after` are JSON arrays [{"name": .., "type": ..}]. Unparseable
// input gives no changes.
std::vector<std::string> DescribeSchemaChanges(const std::string& input, const std::string& before,
                                               const std::string& after);

}  // namespace griffin
