// Merger's spilling (merger_spill.cc) on its own, without the engine: which
// state spills first, that a spilled run's report is the in-memory one (a row
// that repeats in two spilled checks is bad once, the list stays in row order),
// that a second FinishSpills changes nothing, and that `unique` states do
// not spill when verdicts leave batch by batch. engine_spill_test.cc covers
// threads, batch sizes and every key type through RunValidation.
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "exec/batch_evaluator.h"
#include "exec/merger.h"
#include "exec/test_batches.h"
#include "rules/rule_loader.h"

namespace griffin {
namespace {

using testing::SplitRows;

const char* kRules = R"(griffin: 1
dataset: t
columns:
  big:
    unique: true
  small:
    unique: {value: true, severity: warn}
  n:
    type: int64
    unique: true
)";

std::shared_ptr<const Plan> Compile() {
  auto rules = LoadRuleText(kRules, "rules.yaml");
  EXPECT_TRUE(rules.ok()) << rules.status().message();
  auto plan = Plan::Compile(*rules, 0);
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  return *plan;
}

// `rows` rows: `big` distinct but for a repeat of row r - 5 at every 97th row,
// `small` one of three values, `n` distinct but for a repeat at every 97th row
// too (so those rows fail both error checks).
std::vector<std::vector<std::optional<std::string>>> Rows(int rows) {
  std::vector<std::vector<std::optional<std::string>>> out;
  for (int r = 0; r < rows; ++r) {
    const int key = (r % 97 == 96) ? r - 5 : r;
    out.push_back({"key-" + std::to_string(key), "s" + std::to_string(r % 3), std::to_string(key * 7)});
  }
  return out;
}

struct SpillRun {
  Report report;
  Status finish_spills;
};

// Evaluates and merges `rows` in batches of `batch_rows` under `memory_limit`;
// with `consume`, a row consumer takes every batch's verdicts.
SpillRun MergeRows(int rows, size_t batch_rows, int64_t memory_limit, bool consume = false,
             bool finish_spills_twice = false) {
  auto plan = Compile();
  MergerOptions options;
  options.memory_limit = memory_limit;
  options.tmp_dir = std::filesystem::temp_directory_path().string();
  Merger::RowConsumer consumer = nullptr;
  if (consume) consumer = [](const RowVerdicts&) { return Status::OK(); };
  Merger merger(plan, std::move(options), consumer);
  BatchEvaluator evaluator(plan);
  for (const auto& batch : SplitRows({"big", "small", "n"}, Rows(rows), batch_rows)) {
    auto result = evaluator.Evaluate(batch);
    EXPECT_TRUE(result.ok()) << result.status().message();
    Status merged = merger.Merge(**result);
    EXPECT_TRUE(merged.ok()) << merged.message();
  }
  SpillRun run;
  run.finish_spills = merger.FinishSpills();
  if (finish_spills_twice && run.finish_spills.ok()) run.finish_spills = merger.FinishSpills();
  run.report = merger.Finish(/*text_input=*/true);
  return run;
}

void ExpectSameVerdicts(const Report& spilled, const Report& in_memory) {
  EXPECT_EQ(spilled.rows, in_memory.rows);
  EXPECT_EQ(spilled.bad_rows, in_memory.bad_rows);
  EXPECT_EQ(spilled.quality_score, in_memory.quality_score);
  ASSERT_EQ(spilled.checks.size(), in_memory.checks.size());
  for (size_t i = 0; i < spilled.checks.size(); ++i) {
    EXPECT_EQ(spilled.checks[i].name, in_memory.checks[i].name);
    EXPECT_EQ(spilled.checks[i].violations, in_memory.checks[i].violations) << spilled.checks[i].name;
  }
  ASSERT_EQ(spilled.violations.size(), in_memory.violations.size());
  for (size_t i = 0; i < spilled.violations.size(); ++i) {
    EXPECT_EQ(spilled.violations[i].row, in_memory.violations[i].row) << i;
    EXPECT_EQ(spilled.violations[i].check, in_memory.violations[i].check) << i;
    EXPECT_EQ(spilled.violations[i].message, in_memory.violations[i].message) << i;
  }
}

TEST(MergerSpillTest, EveryStateSpilledGivesTheInMemoryReport) {
  const SpillRun in_memory = MergeRows(3000, 250, 0);
  const SpillRun spilled = MergeRows(3000, 250, 1);
  ASSERT_TRUE(spilled.finish_spills.ok()) << spilled.finish_spills.message();
  EXPECT_FALSE(in_memory.report.spill.has_value());
  ASSERT_TRUE(spilled.report.spill.has_value());
  EXPECT_EQ(spilled.report.spill->checks.size(), 3u);
  EXPECT_GT(spilled.report.spill->bytes, 0);
  // 30 repeats in big and n, on the same rows: each such row is bad once.
  EXPECT_EQ(in_memory.report.bad_rows, 30);
  ExpectSameVerdicts(spilled.report, in_memory.report);
}

TEST(MergerSpillTest, TheLargestStateSpillsFirstAndAloneWhenThatIsEnough) {
  // big and n hold 20,000 keys each; small three. A limit that two of the
  // large states pass and one does not: the first large one by check order
  // spills (the largest, ties to the first), the other stays in memory.
  const SpillRun spilled = MergeRows(20000, 1000, 900 * 1024);
  ASSERT_TRUE(spilled.finish_spills.ok()) << spilled.finish_spills.message();
  ASSERT_TRUE(spilled.report.spill.has_value());
  ASSERT_GE(spilled.report.spill->checks.size(), 1u);
  for (const std::string& check : spilled.report.spill->checks)
    EXPECT_EQ(check.find("small"), std::string::npos) << check << " spilled before the larger states";
  ExpectSameVerdicts(spilled.report, MergeRows(20000, 1000, 0).report);
}

TEST(MergerSpillTest, ASecondFinishSpillsCountsNothingTwice) {
  const SpillRun once = MergeRows(2000, 300, 1);
  const SpillRun twice = MergeRows(2000, 300, 1, /*consume=*/false, /*finish_spills_twice=*/true);
  ASSERT_TRUE(twice.finish_spills.ok()) << twice.finish_spills.message();
  EXPECT_EQ(twice.report.violations.size(), once.report.violations.size());
  ExpectSameVerdicts(twice.report, once.report);
}

TEST(MergerSpillTest, UniqueDoesNotSpillWhenRowsAreConsumedAndTheExcessIsReported) {
  const SpillRun consumed = MergeRows(3000, 250, 1, /*consume=*/true);
  EXPECT_FALSE(consumed.report.spill.has_value());
  EXPECT_GT(consumed.report.unspillable_state_bytes, 1);
  ExpectSameVerdicts(consumed.report, MergeRows(3000, 250, 0).report);
}

}  // namespace
}  // namespace griffin
