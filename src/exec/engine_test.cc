#include "exec/engine.h"

#include <algorithm>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>

#include "exec/test_batches.h"
#include "report/json_writer.h"
#include "rules/rule_loader.h"

namespace griffin {
namespace {

using testing::SplitRows;
using testing::VectorSource;

const char* kRules = R"(griffin: 1
dataset: t
columns:
  id:
    type: string
    unique: true
  amount:
    type: float64
    not_null: true
    min: 0
rows:
  - name: pair_unique
    unique: [id, amount]
  - name: positive_or_big
    expr: "amount > 0 or id == 'z'"
table:
  - row_count: {min: 1}
  - mean: {column: amount, min: 0, max: 100}
  - distinct_count: {column: id, max: 3}
)";

std::vector<std::vector<std::optional<std::string>>> Rows() {
  return {{"a", "1"}, {"b", "-1"}, {"a", "2"}, {"c", std::nullopt}, {"a", "1"},
          {"z", "0"}, {"b", "x"}, {"d", "5"}, {"a", "7"}};
}

Report RunRules(int threads, size_t batch_rows, int64_t max_violations = 1000) {
  auto rules = LoadRuleText(kRules, "rules.yaml");
  EXPECT_TRUE(rules.ok()) << rules.status().message();
  auto plan = Plan::Compile(*rules, 0);
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  VectorSource source(SplitRows({"id", "amount"}, Rows(), batch_rows));
  RunOptions options;
  options.threads = threads;
  options.max_violations = max_violations;
  auto report = RunValidation(*plan, source, options);
  EXPECT_TRUE(report.ok()) << report.status().message();
  return *report;
}

const CheckReport& Check(const Report& report, const std::string& name) {
  for (const CheckReport& c : report.checks)
    if (c.name == name) return c;
  ADD_FAILURE() << "no check " << name;
  return report.checks[0];
}

TEST(EngineTest, CountsAndFirstOccurrences) {
  Report report = RunRules(1, 100);
  EXPECT_EQ(report.rows, 9);
  const CheckReport& id_unique = Check(report, "id.unique");
  EXPECT_EQ(id_unique.evaluated, 9);
  EXPECT_EQ(id_unique.violations, 4);  // rows 2, 4, 6, 8 repeat earlier ids
  const CheckReport& not_null = Check(report, "amount.not_null");
  EXPECT_EQ(not_null.violations, 2);   // row 3 null, row 6 unparseable counts as null
  const CheckReport& min = Check(report, "amount.min");
  EXPECT_EQ(min.evaluated, 7);
  EXPECT_EQ(min.violations, 1);        // row 1
  const CheckReport& pair = Check(report, "pair_unique");
  EXPECT_EQ(pair.evaluated, 7);
  EXPECT_EQ(pair.violations, 1);       // row 4 repeats (a, 1)
  const CheckReport& expr = Check(report, "positive_or_big");
  EXPECT_EQ(expr.evaluated, 9);
  EXPECT_EQ(expr.violations, 1);       // row 1: -1 > 0 false, 'b' == 'z' false; row 5 is id z
  EXPECT_EQ(Check(report, "table.row_count").observed.text, "9");
  EXPECT_EQ(Check(report, "id.distinct_count").observed.text, "5");
  EXPECT_FALSE(Check(report, "id.distinct_count").passed);
  // Bad rows: 1 (min, expr), 2 4 6 8 (unique), 3 6 (not_null) -> {1,2,3,4,6,8}
  EXPECT_EQ(report.bad_rows, 6);
  EXPECT_FALSE(report.passed);
  ASSERT_FALSE(report.violations.empty());
  EXPECT_EQ(report.violations[0].row, 1);
  EXPECT_EQ(report.violations[0].check, "amount.min");
  // the unique violation of row 2 names row 0 as the first occurrence
  bool found = false;
  for (const auto& v : report.violations)
    if (v.row == 2 && v.check == "id.unique") found = v.message.find("row 0") != std::string::npos;
  EXPECT_TRUE(found);
}

TEST(EngineTest, IdenticalAcrossThreadsAndBatchSizes) {
  Report baseline = RunRules(1, 100);
  baseline.elapsed_s = 0;
  baseline.threads = 0;
  for (int threads : {1, 2, 7}) {
    for (size_t batch_rows : {1, 2, 3, 100}) {
      Report other = RunRules(threads, batch_rows);
      other.elapsed_s = 0;
      other.threads = 0;
      EXPECT_EQ(ReportToJson(other), ReportToJson(baseline)) << threads << " threads, " << batch_rows << " rows";
    }
  }
}

TEST(EngineTest, MaxViolationsTruncatesListButNotCounts) {
  Report report = RunRules(2, 2, 3);
  // 3 per check: id.unique lists 3 of its 4; amount.type 1 (row 6), not_null 2,
  // min 1, pair 1, expr 1.
  EXPECT_EQ(report.violations.size(), 9u);
  EXPECT_TRUE(report.violations_truncated);
  EXPECT_EQ(Check(report, "id.unique").violations, 4);
  EXPECT_EQ(report.violations[0].row, 1);
}

// Row errors reuse the messages of listed violations: whatever is listed, they
// are the same, and equal to the listed messages.
TEST(EngineTest, RowErrorsDoNotDependOnHowManyViolationsAreListed) {
  auto rules = LoadRuleText(kRules, "rules.yaml");
  ASSERT_TRUE(rules.ok());
  auto plan = Plan::Compile(*rules, 0);
  ASSERT_TRUE(plan.ok());
  std::vector<std::string> baseline;
  for (int64_t max_violations : {1000, 0, 1, 3}) {
    for (size_t batch_rows : {100, 2}) {
      VectorSource source(SplitRows({"id", "amount"}, Rows(), batch_rows));
      std::vector<std::string> errors;
      RunOptions options;
      options.threads = 1;
      options.max_violations = max_violations;
      options.on_rows = [&errors](const RowVerdicts& verdicts) {
        for (size_t i = 0; i < verdicts.bad_rows.size(); ++i)
          for (uint32_t e = verdicts.error_offsets[i]; e < verdicts.error_offsets[i + 1]; ++e)
            errors.push_back(std::to_string(verdicts.base_row + verdicts.bad_rows[i]) + " " +
                             verdicts.errors[e].check + ": " + verdicts.errors[e].message);
        return Status::OK();
      };
      auto report = RunValidation(*plan, source, options);
      ASSERT_TRUE(report.ok());
      if (baseline.empty()) {
        baseline = errors;
        ASSERT_GE(baseline.size(), 6u);
        for (const ViolationReport& v : report->violations) {
          const std::string line = std::to_string(v.row) + " " + v.check + ": " + v.message;
          EXPECT_NE(std::find(baseline.begin(), baseline.end(), line), baseline.end()) << line;
        }
      }
      EXPECT_EQ(errors, baseline) << max_violations << " listed, " << batch_rows << " rows per batch";
    }
  }
}

// A source that records, at each read, how many batches on_rows has seen.
class LockstepProbe : public VectorSource {
 public:
  LockstepProbe(std::vector<std::shared_ptr<Batch>> batches, const int* delivered)
      : VectorSource(std::move(batches)), delivered_(delivered) {}
  Result<std::unique_ptr<Chunk>> NextChunk() override {
    delivered_at_read.push_back(*delivered_);
    return VectorSource::NextChunk();
  }
  std::vector<int> delivered_at_read;

 private:
  const int* delivered_;
};

TEST(EngineTest, MaxInFlightOneReadsOnlyAfterThePreviousBatchIsDelivered) {
  auto rules = LoadRuleText(kRules, "rules.yaml");
  ASSERT_TRUE(rules.ok());
  auto plan = Plan::Compile(*rules, 0);
  ASSERT_TRUE(plan.ok());
  for (int64_t max_in_flight : {1, 0}) {
    int delivered = 0;
    LockstepProbe source(SplitRows({"id", "amount"}, Rows(), 2), &delivered);  // 5 batches
    RunOptions options;
    options.threads = 2;
    options.max_in_flight = max_in_flight;
    options.on_rows = [&delivered](const RowVerdicts&) {
      ++delivered;
      return Status::OK();
    };
    auto report = RunValidation(*plan, source, options);
    ASSERT_TRUE(report.ok());
    EXPECT_EQ(report->rows, 9);
    EXPECT_EQ(delivered, 5);
    if (max_in_flight == 1) {
      EXPECT_EQ(source.delivered_at_read, (std::vector<int>{0, 1, 2, 3, 4, 5}));
    } else {  // the default reads ahead: 2 * 2 + 1 chunks before the first result
      ASSERT_GE(source.delivered_at_read.size(), 5u);
      EXPECT_EQ(source.delivered_at_read[4], 0);
    }
  }
}

// A source whose chunks record the thread that decodes them.
class ThreadProbe : public InputSource {
 public:
  explicit ThreadProbe(std::vector<std::shared_ptr<Batch>> batches) : batches_(std::move(batches)) {}
  Result<std::unique_ptr<Chunk>> NextChunk() override {
    if (next_ == batches_.size()) return std::unique_ptr<Chunk>();
    return std::unique_ptr<Chunk>(new ProbeChunk(batches_[next_++], this));
  }
  int64_t bytes_read() const override { return 0; }
  int64_t total_bytes() const override { return 0; }
  std::vector<std::thread::id> decoded_on;

 private:
  struct ProbeChunk : Chunk {
    ProbeChunk(std::shared_ptr<Batch> b, ThreadProbe* p) : batch(std::move(b)), probe(p) {}
    Result<std::shared_ptr<Batch>> Decode() override {
      std::lock_guard<std::mutex> lock(probe->mutex_);
      probe->decoded_on.push_back(std::this_thread::get_id());
      return batch;
    }
    std::shared_ptr<Batch> batch;
    ThreadProbe* probe;
  };
  std::vector<std::shared_ptr<Batch>> batches_;
  size_t next_ = 0;
  std::mutex mutex_;
};

TEST(EngineTest, OneChunkAndLockstepRunsEvaluateOnTheCallingThread) {
  auto rules = LoadRuleText(kRules, "rules.yaml");
  ASSERT_TRUE(rules.ok());
  auto plan = Plan::Compile(*rules, 0);
  ASSERT_TRUE(plan.ok());
  struct Case {
    size_t batch_rows;
    int64_t max_in_flight;
    bool on_caller;
  };
  for (const Case& c : {Case{100, 0, true}, Case{2, 1, true}, Case{2, 0, false}}) {
    ThreadProbe source(SplitRows({"id", "amount"}, Rows(), c.batch_rows));
    RunOptions options;
    options.threads = 2;
    options.max_in_flight = c.max_in_flight;
    auto report = RunValidation(*plan, source, options);
    ASSERT_TRUE(report.ok());
    EXPECT_EQ(report->rows, 9);
    EXPECT_EQ(report->threads, 2);  // the report states the resolved threads either way
    ASSERT_FALSE(source.decoded_on.empty());
    for (std::thread::id id : source.decoded_on)
      EXPECT_EQ(id == std::this_thread::get_id(), c.on_caller) << c.batch_rows << " rows, " << c.max_in_flight;
  }
}

}  // namespace
}  // namespace griffin
