#include "exec/partial_state.h"

#include <gtest/gtest.h>

#include <cstring>

#include "exec/partial_state_test_util.h"
#include "report/json_writer.h"
#include "rules/rule_loader.h"

namespace griffin {
namespace {

using partial_test::Compile;
using partial_test::kRules;
using partial_test::PartOf;
using partial_test::Rows;
using partial_test::WholeJson;

TEST(PartialState, TwoPartsGiveTheWholesReportUniqueAcrossThePartsIncluded) {
  auto plan = Compile(kRules);
  auto first = Rows({"a", "b", "a"}, {"1", "2", "-3"});
  auto second = Rows({"b", "c", "c"}, {"2", "7", "8"});   // b and tag 2 repeat the first part's row 1
  const std::string whole = WholeJson(plan, {first, second});
  const std::string a = PartOf(plan, {first}, 0), b = PartOf(plan, {second}, 3);
  for (const auto& order : {std::vector<std::string_view>{a, b}, std::vector<std::string_view>{b, a}}) {
    auto merged = PartialState::MergeAll(plan, order, {"a", "b"});
    ASSERT_TRUE(merged.ok()) << merged.status().message();
    EXPECT_EQ(ReportToJson(*merged), whole);
  }
  auto merged = PartialState::MergeAll(plan, {a, b}, {"a", "b"});
  EXPECT_EQ(merged->bad_rows, 3);   // rows 2 (a again, n < 0), 3 (b and tag 2 again: counted once), 5 (c again)
  EXPECT_NE(ReportToJson(*merged).find("duplicates row 1"), std::string::npos);
}

TEST(PartialState, StatesOfAnotherRuleFileOrCorruptOrOverlappingAreRefused) {
  auto plan = Compile(kRules);
  auto other = Compile(std::string(kRules) + "score: {min: 0.5}\n");
  const std::string a = PartOf(plan, {Rows({"a"}, {"1"})}, 0);
  auto refused = PartialState::MergeAll(other, {a}, {"part 1"});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("part 1: a partial state of another rule file"), std::string::npos);
  auto cut = PartialState::MergeAll(plan, {std::string_view(a).substr(0, a.size() - 3)}, {"p"});
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(cut.status().message(), "p: corrupt partial validation state");
  auto overlap = PartialState::MergeAll(plan, {a, a}, {"x", "y"});
  ASSERT_FALSE(overlap.ok());
  EXPECT_NE(overlap.status().message().find("overlap"), std::string::npos);
  std::string other_version = a;
  const size_t at = other_version.find(GRIFFIN_VERSION);
  other_version[at] = '9';
  auto version = PartialState::MergeAll(plan, {other_version}, {"v"});
  ASSERT_FALSE(version.ok());
  EXPECT_NE(version.status().message().find("a partial state of Griffin 9"), std::string::npos);
}

// Found by partial_state_fuzz: a state's counts are read back checked (they
// are summed and divided: a count below zero, above the part's rows or past
// 2^62 row ids overflowed the report's pass rate).
TEST(PartialState, StatesWhoseCountsCannotBeAreRefused) {
  auto plan = Compile(kRules);
  const std::string a = PartOf(plan, {Rows({"a", "b"}, {"1", "2"})}, 0);
  // Offsets of the fields after the three length-prefixed header strings.
  size_t at = 0;
  for (int field = 0; field < 3; ++field) {
    uint64_t size;
    std::memcpy(&size, a.data() + at, 8);
    at += 8 + size;
  }
  const size_t row_offset = at, rows = at + 8, bad_rows = at + 24;
  const size_t first_evaluated = at + 6 * 8 + 1 + 8 + 8, first_violations = first_evaluated + 8;
  auto with = [&](size_t offset, int64_t value) {
    std::string bytes = a;
    std::memcpy(bytes.data() + offset, &value, 8);
    return bytes;
  };
  ASSERT_TRUE(PartialState::MergeAll(plan, {with(first_violations, 0)}, {"p"}).ok());
  for (const std::string& bad : {with(first_violations, 3), with(first_violations, -1), with(first_evaluated, 3),
                                 with(first_evaluated, -2), with(bad_rows, 3), with(rows, int64_t{1} << 62),
                                 with(row_offset, int64_t{1} << 62)}) {
    auto refused = PartialState::MergeAll(plan, {bad}, {"p"});
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.status().message(), "p: corrupt partial validation state");
  }
}

}  // namespace
}  // namespace griffin
