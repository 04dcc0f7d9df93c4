#include "util/line_diff.h"

#include <algorithm>

namespace griffin {
namespace {

using Lines = std::vector<std::string>;

// The search keeps O(D^2) positions for D edits; past this many it stops and
// the changed middle is shown as removed, then added (still a correct diff).
constexpr int64_t kMaxTracePositions = int64_t{1} << 22;

// Lines [begin, end) of a text.
struct Slice {
  const Lines& lines;
  int64_t begin, end;
  int64_t size() const { return end - begin; }
  const std::string& operator[](int64_t i) const { return lines[static_cast<size_t>(begin + i)]; }
};

// Myers' greedy forward search. trace[d] holds, for every diagonal k = x - y
// in [-d, d], the furthest x reached with d edits (at index k + d). Empty
// when the search would keep more than kMaxTracePositions.
std::vector<std::vector<int64_t>> ForwardTrace(const Slice& a, const Slice& b) {
  const int64_t n = a.size(), m = b.size();
  std::vector<std::vector<int64_t>> trace;
  int64_t kept = 0;
  for (int64_t d = 0; d <= n + m; ++d) {
    kept += 2 * d + 1;
    if (kept > kMaxTracePositions) return {};
    std::vector<int64_t> furthest(static_cast<size_t>(2 * d + 1));
    const std::vector<int64_t>* previous = d > 0 ? &trace.back() : nullptr;
    auto before = [&](int64_t k) { return (*previous)[static_cast<size_t>(k + d - 1)]; };
    bool done = false;
    for (int64_t k = -d; k <= d; k += 2) {
      int64_t x = 0;
      if (d > 0) {
        const bool down = k == -d || (k != d && before(k - 1) < before(k + 1));
        x = down ? before(k + 1) : before(k - 1) + 1;  // down: an added line; right: a removed one
      }
      int64_t y = x - k;
      while (x < n && y < m && a[x] == b[y]) ++x, ++y;
      furthest[static_cast<size_t>(k + d)] = x;
      done = done || (x >= n && y >= m);
    }
    trace.push_back(std::move(furthest));
    if (done) break;
  }
  return trace;
}

// The edit script of a against b, walking the trace back from the end;
// line numbers are 1-based in the whole texts.
std::vector<DiffLine> Backtrack(const Slice& a, const Slice& b, const std::vector<std::vector<int64_t>>& trace) {
  std::vector<DiffLine> reversed;
  int64_t x = a.size(), y = b.size();
  auto keep = [&] {
    --x, --y;
    reversed.push_back({DiffLine::Kind::kContext, a[x], a.begin + x + 1, b.begin + y + 1});
  };
  for (int64_t d = static_cast<int64_t>(trace.size()) - 1; d > 0; --d) {
    const std::vector<int64_t>& previous = trace[static_cast<size_t>(d - 1)];
    auto before = [&](int64_t k) { return previous[static_cast<size_t>(k + d - 1)]; };
    const int64_t k = x - y;
    const bool down = k == -d || (k != d && before(k - 1) < before(k + 1));
    const int64_t previous_k = down ? k + 1 : k - 1;
    const int64_t previous_x = before(previous_k), previous_y = previous_x - previous_k;
    while (x > previous_x && y > previous_y) keep();
    if (down) reversed.push_back({DiffLine::Kind::kAdded, b[previous_y], 0, b.begin + previous_y + 1});
    else reversed.push_back({DiffLine::Kind::kRemoved, a[previous_x], a.begin + previous_x + 1, 0});
    x = previous_x, y = previous_y;
  }
  while (x > 0 && y > 0) keep();
  return std::vector<DiffLine>(reversed.rbegin(), reversed.rend());
}

// Puts every removed line of a run of changes before its added lines.
void RemovalsFirst(std::vector<DiffLine>* lines) {
  auto is_change = [](const DiffLine& l) { return l.kind != DiffLine::Kind::kContext; };
  for (auto run = lines->begin(); run != lines->end();) {
    run = std::find_if(run, lines->end(), is_change);
    auto end = std::find_if_not(run, lines->end(), is_change);
    std::stable_partition(run, end, [](const DiffLine& l) { return l.kind == DiffLine::Kind::kRemoved; });
    run = end;
  }
}

std::string Range(int64_t start, int64_t count) {
  return count == 1 ? std::to_string(start) : std::to_string(start) + "," + std::to_string(count);
}

}  // namespace

std::vector<std::string> SplitLines(std::string_view text) {
  std::vector<std::string> lines;
  size_t begin = 0;
  while (begin < text.size()) {
    const size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) {
      lines.emplace_back(text.substr(begin));
      break;
    }
    lines.emplace_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return lines;
}

std::vector<DiffLine> DiffLines(const Lines& before, const Lines& after) {
  // The common head and tail are context; the search runs on the middle.
  const int64_t n = static_cast<int64_t>(before.size()), m = static_cast<int64_t>(after.size());
  int64_t head = 0, tail = 0;
  while (head < n && head < m && before[static_cast<size_t>(head)] == after[static_cast<size_t>(head)]) ++head;
  while (tail < n - head && tail < m - head &&
         before[static_cast<size_t>(n - 1 - tail)] == after[static_cast<size_t>(m - 1 - tail)])
    ++tail;
  const Slice a{before, head, n - tail}, b{after, head, m - tail};
  std::vector<DiffLine> lines;
  for (int64_t i = 0; i < head; ++i) lines.push_back({DiffLine::Kind::kContext, before[static_cast<size_t>(i)], i + 1, i + 1});
  const std::vector<std::vector<int64_t>> trace = ForwardTrace(a, b);
  if (!trace.empty()) {
    std::vector<DiffLine> middle = Backtrack(a, b, trace);
    lines.insert(lines.end(), std::make_move_iterator(middle.begin()), std::make_move_iterator(middle.end()));
  } else {
    for (int64_t i = 0; i < a.size(); ++i) lines.push_back({DiffLine::Kind::kRemoved, a[i], a.begin + i + 1, 0});
    for (int64_t i = 0; i < b.size(); ++i) lines.push_back({DiffLine::Kind::kAdded, b[i], 0, b.begin + i + 1});
  }
  for (int64_t i = tail; i > 0; --i)
    lines.push_back({DiffLine::Kind::kContext, before[static_cast<size_t>(n - i)], n - i + 1, m - i + 1});
  RemovalsFirst(&lines);
  return lines;
}

std::vector<DiffHunk> DiffHunks(const Lines& before, const Lines& after, int context) {
  const std::vector<DiffLine> lines = DiffLines(before, after);
  const int64_t size = static_cast<int64_t>(lines.size()), around = std::max(0, context);
  std::vector<DiffHunk> hunks;
  int64_t i = 0;
  while (i < size) {
    while (i < size && lines[static_cast<size_t>(i)].kind == DiffLine::Kind::kContext) ++i;
    if (i == size) break;
    const int64_t first = std::max<int64_t>(0, i - around);
    // Extend over changes whose gap of context lines is at most 2 * context.
    int64_t last_change = i;
    for (int64_t j = i + 1; j < size && j - last_change <= 2 * around + 1; ++j)
      if (lines[static_cast<size_t>(j)].kind != DiffLine::Kind::kContext) last_change = j;
    const int64_t end = std::min(size, last_change + 1 + around);
    DiffHunk hunk;
    hunk.lines.assign(lines.begin() + first, lines.begin() + end);
    // The old and new line numbers just before the hunk.
    int64_t old_before = 0, new_before = 0;
    for (int64_t j = 0; j < first; ++j) {
      const DiffLine& l = lines[static_cast<size_t>(j)];
      if (l.kind != DiffLine::Kind::kAdded) ++old_before;
      if (l.kind != DiffLine::Kind::kRemoved) ++new_before;
    }
    for (const DiffLine& l : hunk.lines) {
      if (l.kind != DiffLine::Kind::kAdded) ++hunk.old_count;
      if (l.kind != DiffLine::Kind::kRemoved) ++hunk.new_count;
    }
    hunk.old_start = hunk.old_count == 0 ? old_before : old_before + 1;
    hunk.new_start = hunk.new_count == 0 ? new_before : new_before + 1;
    hunks.push_back(std::move(hunk));
    i = end;
  }
  return hunks;
}

std::string UnifiedDiff(const std::vector<DiffHunk>& hunks) {
  std::string out;
  for (const DiffHunk& hunk : hunks) {
    out += "@@ -" + Range(hunk.old_start, hunk.old_count) + " +" + Range(hunk.new_start, hunk.new_count) + " @@\n";
    for (const DiffLine& line : hunk.lines) {
      out += line.kind == DiffLine::Kind::kContext ? ' ' : line.kind == DiffLine::Kind::kRemoved ? '-' : '+';
      out += line.text;
      out += '\n';
    }
  }
  return out;
}

const char* DiffLineKindName(DiffLine::Kind kind) {
  switch (kind) {
    case DiffLine::Kind::kContext: return "context";
    case DiffLine::Kind::kRemoved: return "removed";
    case DiffLine::Kind::kAdded: return "added";
  }
  return "context";
}

}  // namespace griffin
