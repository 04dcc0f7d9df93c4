#include "util/line_diff.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace griffin {
namespace {

using Lines = std::vector<std::string>;

// The length of the longest common subsequence, by dynamic programming.
size_t LcsLength(const Lines& a, const Lines& b) {
  std::vector<std::vector<size_t>> table(a.size() + 1, std::vector<size_t>(b.size() + 1, 0));
  for (size_t i = a.size(); i-- > 0;)
    for (size_t j = b.size(); j-- > 0;)
      table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : std::max(table[i + 1][j], table[i][j + 1]);
  return table[0][0];
}

// The old and new texts a diff describes, and its number of edits.
struct Sides {
  Lines before, after;
  size_t edits = 0;
};

Sides Apply(const std::vector<DiffLine>& lines) {
  Sides sides;
  for (const DiffLine& l : lines) {
    if (l.kind != DiffLine::Kind::kAdded) {
      sides.before.push_back(l.text);
      EXPECT_EQ(l.old_line, static_cast<int64_t>(sides.before.size()));
    }
    if (l.kind != DiffLine::Kind::kRemoved) {
      sides.after.push_back(l.text);
      EXPECT_EQ(l.new_line, static_cast<int64_t>(sides.after.size()));
    }
    if (l.kind != DiffLine::Kind::kContext) ++sides.edits;
  }
  return sides;
}

TEST(LineDiffTest, SplitLinesKeepsALastLineWithoutNewline) {
  EXPECT_EQ(SplitLines("a\nb\n"), (Lines{"a", "b"}));
  EXPECT_EQ(SplitLines("a\n\nb"), (Lines{"a", "", "b"}));
  EXPECT_TRUE(SplitLines("").empty());
}

TEST(LineDiffTest, AUnifiedDiffAsDiffUPrintsIt) {
  const Lines before = {"griffin: 1", "dataset: ledger", "columns:", "  id: {type: int64}", "  amount:",
                        "    type: float64", "    min: 0"};
  const Lines after = {"griffin: 1", "dataset: ledger", "columns:", "  id: {type: int64}", "  amount:",
                       "    type: float64", "    min: 10", "table:", "  - row_count: {min: 1}"};
  // What `diff -u` prints for these two files, less its file headers.
  EXPECT_EQ(UnifiedDiff(DiffHunks(before, after)),
            "@@ -4,4 +4,6 @@\n"
            "   id: {type: int64}\n"
            "   amount:\n"
            "     type: float64\n"
            "-    min: 0\n"
            "+    min: 10\n"
            "+table:\n"
            "+  - row_count: {min: 1}\n");
}

TEST(LineDiffTest, RemovedLinesComeBeforeAddedOnesInEveryRun) {
  const std::vector<DiffLine> lines = DiffLines({"a", "b", "c", "d"}, {"a", "x", "y", "d"});
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[1].kind, DiffLine::Kind::kRemoved);
  EXPECT_EQ(lines[2].kind, DiffLine::Kind::kRemoved);
  EXPECT_EQ(lines[3].kind, DiffLine::Kind::kAdded);
  EXPECT_EQ(lines[4].kind, DiffLine::Kind::kAdded);
  EXPECT_EQ(UnifiedDiff(DiffHunks({"a", "b", "c", "d"}, {"a", "x", "y", "d"}, 1)),
            "@@ -1,4 +1,4 @@\n a\n-b\n-c\n+x\n+y\n d\n");
}

TEST(LineDiffTest, HunksSplitWhenChangesAreFarApartAndEmptySidesStartBeforeThem) {
  Lines before;
  for (int i = 1; i <= 20; ++i) before.push_back("line " + std::to_string(i));
  Lines after = before;
  after[1] = "changed 2";
  after.erase(after.begin() + 16);  // line 17
  const std::vector<DiffHunk> hunks = DiffHunks(before, after);
  ASSERT_EQ(hunks.size(), 2u);
  EXPECT_EQ(UnifiedDiff({hunks[0]}), "@@ -1,5 +1,5 @@\n line 1\n-line 2\n+changed 2\n line 3\n line 4\n line 5\n");
  EXPECT_EQ(hunks[1].old_start, 14);
  EXPECT_EQ(hunks[1].old_count, 7);
  EXPECT_EQ(hunks[1].new_start, 14);
  EXPECT_EQ(hunks[1].new_count, 6);
  // Changes 6 context lines apart share one hunk (gap <= 2 * 3).
  Lines near = before;
  near[1] = "x";
  near[8] = "y";
  EXPECT_EQ(DiffHunks(before, near).size(), 1u);
  near[8] = before[8];
  near[9] = "y";
  EXPECT_EQ(DiffHunks(before, near).size(), 2u);
  // A file from nothing, and to nothing.
  EXPECT_EQ(UnifiedDiff(DiffHunks({}, {"a", "b"})), "@@ -0,0 +1,2 @@\n+a\n+b\n");
  EXPECT_EQ(UnifiedDiff(DiffHunks({"a"}, {})), "@@ -1 +0,0 @@\n-a\n");
  EXPECT_TRUE(DiffHunks(before, before).empty());
}

TEST(LineDiffTest, RandomTextsGiveAShortestCorrectScript) {
  std::mt19937 random(7);
  for (int round = 0; round < 300; ++round) {
    Lines a, b;
    const int alphabet = 1 + static_cast<int>(random() % 5);
    for (unsigned i = random() % 25; i > 0; --i) a.push_back(std::string(1, static_cast<char>('a' + random() % alphabet)));
    for (unsigned i = random() % 25; i > 0; --i) b.push_back(std::string(1, static_cast<char>('a' + random() % alphabet)));
    const std::vector<DiffLine> lines = DiffLines(a, b);
    const Sides sides = Apply(lines);
    ASSERT_EQ(sides.before, a);
    ASSERT_EQ(sides.after, b);
    ASSERT_EQ(sides.edits, a.size() + b.size() - 2 * LcsLength(a, b)) << "round " << round;
    // Hunks hold every change, in order.
    size_t changes = 0;
    for (const DiffHunk& hunk : DiffHunks(a, b, 2))
      for (const DiffLine& l : hunk.lines) changes += l.kind != DiffLine::Kind::kContext;
    ASSERT_EQ(changes, sides.edits);
  }
}

TEST(LineDiffTest, ATextTooDifferentToSearchIsStillACorrectDiff) {
  Lines a, b;
  for (int i = 0; i < 5000; ++i) {
    a.push_back("old " + std::to_string(i));
    b.push_back("new " + std::to_string(i));
  }
  a.push_back("same");
  b.push_back("same");
  const Sides sides = Apply(DiffLines(a, b));
  EXPECT_EQ(sides.before, a);
  EXPECT_EQ(sides.after, b);
  EXPECT_EQ(sides.edits, 10000u);
}

}  // namespace
}  // namespace griffin
