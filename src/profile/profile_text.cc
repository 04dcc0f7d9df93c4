#include "profile/profile_text.h"

#include <cstdio>

#include "profile/profile_facts.h"
#include "util/text_cut.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

std::string Percent(double share) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f%%", share * 100);
  return buffer;
}

// "min .. max" in the column's type, or "" when it has none.
std::string Range(const ColumnState& column, ValueType type) {
  if ((type == ValueType::kDate || type == ValueType::kTimestamp) && column.times() > 0)
    return FormatTime(column.time_min(), type) + " .. " + FormatTime(column.time_max(), type);
  const NumberStats& n = column.numbers();
  if ((type == ValueType::kInt64 || type == ValueType::kFloat64) && n.finite + n.pos_inf + n.neg_inf > 0) {
    std::string range = FormatDoubleBrief(n.min) + " .. " + FormatDoubleBrief(n.max);
    if (n.finite > 0) range += ", mean " + FormatDoubleBrief(n.mean);
    return range;
  }
  if (column.text().values > 0)
    return "length " + std::to_string(column.text().min_length) + " .. " + std::to_string(column.text().max_length);
  return "";
}

}  // namespace

std::string ProfileToText(const TableProfile& profile) {
  std::string out = std::to_string(profile.rows()) + (profile.rows() == 1 ? " row" : " rows");
  if (profile.malformed_rows() > 0) out += " (" + std::to_string(profile.malformed_rows()) + " malformed)";
  out += ", " + std::to_string(profile.columns().size()) + (profile.columns().size() == 1 ? " column\n" : " columns\n");
  for (const auto& [name, column] : profile.columns()) {
    const InferredType inferred = InferType(column);
    out += "\n" + CutText(name) + "  " + (column.unsupported() ? "unsupported" : ValueTypeName(inferred.type));
    if (column.values() > 0) out += " (" + Percent(inferred.confidence) + ")";
    out += "\n  nulls " + std::to_string(column.nulls()) + " (" +
           Percent(column.rows() ? static_cast<double>(column.nulls()) / static_cast<double>(column.rows()) : 0) +
           "), distinct " + (column.distinct_exact() ? "" : "~") + std::to_string(column.distinct());
    const std::string range = Range(column, inferred.type);
    if (!range.empty()) out += ", " + range;
    out += "\n";
    const auto top = column.top_values().Top(3);
    if (!top.empty() && inferred.type != ValueType::kFloat64) {
      out += "  top";
      for (const TopValues::Entry& entry : top)
        out += " " + CutText(entry.value) + " (" + std::to_string(entry.count) + ")";
      out += "\n";
    }
    const auto patterns = column.patterns().Top(1);
    if (!patterns.empty() && inferred.type == ValueType::kString)
      out += "  pattern " + patterns[0].value + " (" + std::to_string(patterns[0].count) + ")\n";
  }
  return out;
}

}  // namespace griffin
