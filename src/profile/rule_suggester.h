// `griffin suggest`: a rule file (rules-v1) written from a profile, every rule
// with a comment giving its evidence. The rules are chosen so that the data the
// profile was made from passes every one of them (docs/profile.md
// "Suggested rules"):
//   type        when every non-null value reads as the inferred type
//   not_null    when there are no nulls; else a table null_fraction max at
//               the upper end of a 95% Wald interval (as Deequ does)
//   in          string/int64 columns with at most kMaxInValues values, every
//               one seen at least twice on average
//   min, max    int64, float64 (when no NaN or infinity; then finite too),
//               date and timestamp columns: the observed extremes
//   length      string columns without an `in` list: the observed code-point lengths
//   regex       string columns without an `in` list whose every value is an e-mail address, URL,
//               UUID or IPv4 address, or has one pattern (AA9999)
//   unique      string and canonically spelled int64 columns whose values
//               are all distinct (exact count)
//   row_count   at least 1
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "profile/table_profile.h"

namespace griffin {

inline constexpr int64_t kMaxInValues = 20;

struct SuggestOptions {
  std::string dataset;
  std::vector<std::string> inputs;  // named in the header comment
  // How the data was read, written to `source:` when not the defaults.
  std::optional<std::string> format;
  std::optional<char> delimiter;
  bool header = true;
  std::vector<std::string> null_values = {""};
};

std::string SuggestRules(const TableProfile& profile, const SuggestOptions& options);

// A YAML scalar: plain when it is a simple identifier no YAML reader could
// take for another type, else double-quoted with escapes.
std::string YamlScalar(std::string_view text);

// The dataset name `griffin suggest` uses by default: the first input's file
// name without its extensions ("data/day1.csv.gz" -> "day1"); "data" for "-".
std::string DatasetNameFor(const std::string& input);

}  // namespace griffin
