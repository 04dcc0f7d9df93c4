#include "exec/state_accumulator.h"

#include <gtest/gtest.h>

#include "exec/partial_state_test_util.h"

namespace griffin {
namespace {

using partial_test::Compile;
using partial_test::kRules;
using partial_test::PartOf;
using partial_test::Rows;
using partial_test::WholeJson;

const CheckReport* Find(const Report& report, const std::string& name) {
  for (const CheckReport& check : report.checks)
    if (check.name == name) return &check;
  return nullptr;
}

TEST(StateAccumulator, PartsAddedOneAtATimeGiveTheWholesReport) {
  auto plan = Compile(kRules);
  auto first = Rows({"a", "b", "a"}, {"1", "2", "-3"});
  auto second = Rows({"b", "c", "c"}, {"2", "7", "8"});
  auto third = Rows({"d"}, {"200"});
  StateAccumulator whole(plan, PartialState::UniqueScope::kAcrossParts);
  ASSERT_TRUE(whole.Add(PartOf(plan, {first}, whole.end_row()), "1").ok());
  EXPECT_EQ(whole.end_row(), 3);
  ASSERT_TRUE(whole.Add(PartOf(plan, {second}, whole.end_row()), "2").ok());
  ASSERT_TRUE(whole.Add(PartOf(plan, {third}, whole.end_row()), "3").ok());
  EXPECT_EQ(whole.parts(), 3);
  EXPECT_EQ(whole.rows(), 7);
  EXPECT_EQ(ReportToJson(whole.Finish()), WholeJson(plan, {first, second, third}));
}

TEST(StateAccumulator, PerPartUniqueKeepsEachPartsVerdictsAndMergesTheTableChecks) {
  auto plan = Compile(kRules);
  auto first = Rows({"a", "b", "a"}, {"1", "2", "-3"});
  auto second = Rows({"b", "c", "c"}, {"2", "7", "8"});   // b repeats the first part: not a violation here
  StateAccumulator window(plan, PartialState::UniqueScope::kPerPart);
  ASSERT_TRUE(window.Add(PartOf(plan, {first}, 0), "1").ok());
  ASSERT_TRUE(window.Add(PartOf(plan, {second}, 3), "2").ok());
  Report report = window.Finish();
  Report whole = *PartialState::MergeAll(plan, {PartOf(plan, {first}, 0), PartOf(plan, {second}, 3)}, {"1", "2"});
  EXPECT_EQ(Find(report, "id.unique")->violations, 2);   // a in part 1, c in part 2
  EXPECT_EQ(Find(whole, "id.unique")->violations, 3);    // and b across them
  EXPECT_EQ(report.bad_rows, 2);
  for (const char* name : {"table.row_count", "n.distinct_count", "tag.distinct_count", "n.mean", "n.quantile"}) {
    ASSERT_NE(Find(report, name), nullptr) << name;
    EXPECT_EQ(Find(report, name)->observed_text, Find(whole, name)->observed_text) << name;
  }
  EXPECT_EQ(Find(report, "n.distinct_count")->observed_text, "5");  // 1 2 -3 7 8
}

TEST(StateAccumulator, AnEarlierOrCorruptPartIsRefusedAndTheWholeStays) {
  auto plan = Compile(kRules);
  StateAccumulator window(plan, PartialState::UniqueScope::kPerPart);
  ASSERT_TRUE(window.Add(PartOf(plan, {Rows({"a", "b"}, {"1", "2"})}, 10), "1").ok());
  EXPECT_EQ(window.end_row(), 12);
  Status early = window.Add(PartOf(plan, {Rows({"c"}, {"3"})}, 11), "batch 2");
  ASSERT_FALSE(early.ok());
  EXPECT_NE(early.message().find("batch 2: its rows (ids from 11) come before"), std::string::npos);
  EXPECT_FALSE(window.Add("junk", "batch 3").ok());
  EXPECT_EQ(window.rows(), 2);
  EXPECT_EQ(Find(window.Finish(), "table.row_count")->observed_text, "2");
  EXPECT_FALSE(window.Add(PartOf(plan, {Rows({"d"}, {"4"})}, 12), "after").ok());
}

}  // namespace
}  // namespace griffin
