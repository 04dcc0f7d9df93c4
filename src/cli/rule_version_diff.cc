#include "cli/rule_version_diff.h"

#include <vector>

#include "report/json_writer.h"
#include "util/line_diff.h"

namespace griffin {
namespace {

std::vector<DiffHunk> HunksOf(const RuleVersionRecord& from, const RuleVersionRecord& to) {
  return DiffHunks(SplitLines(from.text), SplitLines(to.text));
}

std::string Header(const char* marker, const RuleVersionRecord& v) {
  return std::string(marker) + " rules v" + std::to_string(v.number) + " " + v.sha256.substr(0, 12) +
         " (first seen " + v.first_seen + ")\n";
}

void AppendVersion(const RuleVersionRecord& v, std::string* out) {
  *out += "{\"version\": " + std::to_string(v.number) + ", \"sha256\": ";
  AppendJsonString(v.sha256, out);
  *out += ", \"first_seen\": ";
  AppendJsonString(v.first_seen, out);
  *out += "}";
}

std::string LineNumber(int64_t line) { return line > 0 ? std::to_string(line) : "null"; }

}  // namespace

std::string RuleVersionDiffText(const RuleVersionRecord& from, const RuleVersionRecord& to) {
  const std::vector<DiffHunk> hunks = HunksOf(from, to);
  return Header("---", from) + Header("+++", to) + (hunks.empty() ? "(no change)\n" : UnifiedDiff(hunks));
}

std::string RuleVersionDiffJson(const std::string& dataset, const RuleVersionRecord& from,
                                const RuleVersionRecord& to) {
  const std::vector<DiffHunk> hunks = HunksOf(from, to);
  std::string out = "{\"dataset\": ";
  AppendJsonString(dataset, &out);
  out += ", \"from\": ";
  AppendVersion(from, &out);
  out += ", \"to\": ";
  AppendVersion(to, &out);
  out += std::string(", \"changed\": ") + (hunks.empty() ? "false" : "true") + ", \"hunks\": [";
  for (size_t h = 0; h < hunks.size(); ++h) {
    const DiffHunk& hunk = hunks[h];
    out += h ? ",\n  {" : "\n  {";
    out += "\"old_start\": " + std::to_string(hunk.old_start) + ", \"old_lines\": " + std::to_string(hunk.old_count) +
           ", \"new_start\": " + std::to_string(hunk.new_start) + ", \"new_lines\": " +
           std::to_string(hunk.new_count) + ", \"lines\": [";
    for (size_t i = 0; i < hunk.lines.size(); ++i) {
      const DiffLine& line = hunk.lines[i];
      out += i ? ", {\"kind\": \"" : "{\"kind\": \"";
      out += std::string(DiffLineKindName(line.kind)) + "\", \"text\": ";
      AppendJsonString(line.text, &out);
      out += ", \"old_line\": " + LineNumber(line.old_line) + ", \"new_line\": " + LineNumber(line.new_line) + "}";
    }
    out += "]}";
  }
  out += hunks.empty() ? "]}\n" : "\n]}\n";
  return out;
}

}  // namespace griffin
