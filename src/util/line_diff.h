// A line diff of two texts (Myers' O((N+M)D) algorithm: a shortest edit
// script), grouped into unified-diff hunks with context lines.
//
//   std::vector<DiffHunk> hunks = DiffHunks(SplitLines(before), SplitLines(after));
//   std::string text = UnifiedDiff(hunks);   // "@@ -1,3 +1,3 @@\n a\n-b\n+c\n d\n"
//
// Within a run of changes every removed line comes before every added one.
// Identical texts give no hunks.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace griffin {

struct DiffLine {
  enum class Kind { kContext, kRemoved, kAdded };
  Kind kind = Kind::kContext;
  std::string text;
  int64_t old_line = 0;  // 1-based line in the old text; 0 for an added line
  int64_t new_line = 0;  // 1-based line in the new text; 0 for a removed line
};

struct DiffHunk {
  // Unified-diff ranges: the first line and the line count on each side. A
  // side with no lines starts at the line before the hunk (0 at the top).
  int64_t old_start = 0, old_count = 0, new_start = 0, new_count = 0;
  std::vector<DiffLine> lines;
};

// The lines of `text`, split on '\n' (a last line without one counts).
std::vector<std::string> SplitLines(std::string_view text);

// Every line of both texts, in order: kept lines as context, changes as
// removed-then-added runs.
std::vector<DiffLine> DiffLines(const std::vector<std::string>& before, const std::vector<std::string>& after);

// The changes of DiffLines with up to `context` unchanged lines around each;
// changes closer than 2 * context lines share a hunk.
std::vector<DiffHunk> DiffHunks(const std::vector<std::string>& before, const std::vector<std::string>& after,
                                int context = 3);

// The hunks as unified-diff text without file headers: "@@ -a,b +c,d @@"
// (",1" left out, as diff -u does), then " " context, "-" removed and "+"
// added lines, each followed by '\n'.
std::string UnifiedDiff(const std::vector<DiffHunk>& hunks);

// "context", "removed" or "added".
const char* DiffLineKindName(DiffLine::Kind kind);

}  // namespace griffin
