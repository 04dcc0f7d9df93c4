// Merger's spilling (merger_spill.cc) on its own, without the engine: which
// state spills first, that a spilled run's report is the in-memory one (a row
// that repeats in two spilled checks is bad once, the list stays in row order),
// that a second FinishSpills changes nothing, and that `unique` states do
// not spill when verdicts leave batch by batch, and the two-pass run that
// replaces it (a first pass logs the repeats, a second takes its verdicts from
// the logs). engine_spill_test.cc covers
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

// A run of MergeRows' rows with `options`, a row consumer recording each
// row's verdict ("" clean, else its errors) when `consume`.
struct VerdictRun {
  Report report;
  std::vector<std::string> verdicts;
  Status status;
  UniqueRepeatLogs logs;  // options.log_unique_repeats: taken after FinishSpills
};

VerdictRun MergeWithVerdicts(int rows, size_t batch_rows, MergerOptions options, bool consume) {
  auto plan = Compile();
  options.tmp_dir = std::filesystem::temp_directory_path().string();
  const bool log = options.log_unique_repeats;
  VerdictRun run;
  Merger::RowConsumer consumer = nullptr;
  if (consume) {
    consumer = [&run](const RowVerdicts& v) {
      for (int64_t r = 0; r < v.batch->num_rows; ++r) run.verdicts.push_back(v.bad[r] ? "bad:" : "");
      for (size_t i = 0; i < v.bad_rows.size(); ++i)
        for (uint32_t e = v.error_offsets[i]; e < v.error_offsets[i + 1]; ++e)
          run.verdicts[static_cast<size_t>(v.base_row + v.bad_rows[i])] +=
              " " + v.errors[e].check + "=" + v.errors[e].message;
      return Status::OK();
    };
  }
  Merger merger(plan, std::move(options), consumer);
  BatchEvaluator evaluator(plan);
  for (const auto& batch : SplitRows({"big", "small", "n"}, Rows(rows), batch_rows)) {
    auto result = evaluator.Evaluate(batch);
    EXPECT_TRUE(result.ok()) << result.status().message();
    run.status = merger.Merge(**result);
    if (!run.status.ok()) return run;
  }
  run.status = merger.FinishSpills();
  if (!run.status.ok()) return run;
  run.report = merger.Finish(/*text_input=*/true);
  if (log) {
    auto logs = merger.TakeRepeatLogs();
    if (!logs.ok()) run.status = logs.status();
    else run.logs = std::move(*logs);
  }
  return run;
}

TEST(MergerSpillTest, WithKStopAUniqueStateThatCannotSpillStopsTheMergeWithResourceLimit) {
  MergerOptions options;
  options.memory_limit = 1;
  options.unique_over_limit = UniqueOverLimit::kStop;
  const VerdictRun stopped = MergeWithVerdicts(3000, 250, options, /*consume=*/true);
  EXPECT_EQ(stopped.status.code(), StatusCode::kResourceLimit) << stopped.status.message();
  EXPECT_NE(stopped.status.message().find("memory limit"), std::string::npos) << stopped.status.message();
  // Without a row consumer the same state spills instead: no stop.
  const VerdictRun spilled = MergeWithVerdicts(3000, 250, options, /*consume=*/false);
  EXPECT_TRUE(spilled.status.ok()) << spilled.status.message();
  // Under the limit nothing stops.
  options.memory_limit = 64 << 20;
  EXPECT_TRUE(MergeWithVerdicts(3000, 250, options, /*consume=*/true).status.ok());
}

TEST(MergerSpillTest, TwoPassesGiveTheInMemoryVerdictsAndReport) {
  MergerOptions plain;
  const VerdictRun in_memory = MergeWithVerdicts(3000, 250, plain, /*consume=*/true);
  ASSERT_TRUE(in_memory.status.ok()) << in_memory.status.message();
  ASSERT_EQ(in_memory.report.bad_rows, 30);
  for (int64_t first_limit : {int64_t{1}, int64_t{0}}) {     // every state spilled, or none
    for (size_t batch_rows : {size_t{1}, size_t{250}, size_t{3000}}) {
      MergerOptions first;
      first.memory_limit = first_limit;
      first.log_unique_repeats = true;
      const VerdictRun logged = MergeWithVerdicts(3000, batch_rows, first, /*consume=*/false);
      ASSERT_TRUE(logged.status.ok()) << logged.status.message();
      EXPECT_EQ(logged.report.spill.has_value(), first_limit == 1);
      ASSERT_EQ(logged.logs.size(), 4u);  // per check: big.unique, small.unique, n.type, n.unique
      EXPECT_EQ(logged.logs[2], nullptr);
      ASSERT_NE(logged.logs[3], nullptr);
      EXPECT_EQ(logged.logs[3]->repeats(), 30);
      EXPECT_EQ(logged.logs[0]->repeats(), 30);
      EXPECT_EQ(logged.logs[1]->repeats(), 2997);  // `small`: three values
      MergerOptions second;
      second.memory_limit = 1;  // nothing is held: no key state for a limit to stop
      second.unique_over_limit = UniqueOverLimit::kStop;
      second.known_unique_repeats = logged.logs;
      const VerdictRun known = MergeWithVerdicts(3000, batch_rows == 1 ? 7 : batch_rows, second, /*consume=*/true);
      ASSERT_TRUE(known.status.ok()) << known.status.message();
      EXPECT_EQ(known.verdicts, in_memory.verdicts) << "batch rows " << batch_rows;
      ExpectSameVerdicts(known.report, in_memory.report);
      EXPECT_EQ(known.report.unspillable_state_bytes, 0);
    }
  }
}

TEST(MergerSpillTest, ALogForACheckThatIsNotUniqueIsRefused) {
  auto log = RepeatLog::Open(std::filesystem::temp_directory_path().string());
  ASSERT_TRUE(log.ok());
  MergerOptions options;
  options.known_unique_repeats.resize(1);
  options.known_unique_repeats[0] = std::move(*log);
  auto rules = LoadRuleText("griffin: 1\ndataset: t\ncolumns:\n  big:\n    not_null: true\n", "rules.yaml");
  ASSERT_TRUE(rules.ok());
  auto plan = Plan::Compile(*rules, 0);
  ASSERT_TRUE(plan.ok());
  Merger merger(*plan, std::move(options), nullptr);
  BatchEvaluator evaluator(*plan);
  auto batches = SplitRows({"big"}, {{"a"}, {"b"}}, 2);
  auto result = evaluator.Evaluate(batches[0]);
  ASSERT_TRUE(result.ok());
  const Status merged = merger.Merge(**result);
  EXPECT_EQ(merged.code(), StatusCode::kInternal);
}

}  // namespace
}  // namespace griffin
