// RunValidation past its memory limit (RunOptions::memory_limit): the spilled
// `unique` and `distinct_count` states give the in-memory report, whatever
// the threads, batch sizes and violations listed.
#include <unistd.h>

#include <filesystem>
#include <random>

#include <gtest/gtest.h>

#include "exec/engine.h"
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
  n:
    type: int64
    unique: {value: true, severity: warn}
  f:
    type: float64
    unique: true
  d:
    type: date
rows:
  - name: pair_unique
    unique: [id, n]
  - name: n_small
    expr: "n < 90"
table:
  - distinct_count: {column: id, max: 100000}
  - distinct_count: {column: f, min: 1}
  - distinct_count: {column: d, min: 1}
)";

// Rows with many repeats, nulls, unparseable values, -0.0/0.0 and NaN.
std::vector<std::vector<std::optional<std::string>>> RandomRows(uint64_t seed, int rows) {
  std::mt19937_64 random(seed);
  auto pick = [&](int n) { return static_cast<int>(random() % n); };
  std::vector<std::vector<std::optional<std::string>>> out;
  for (int r = 0; r < rows; ++r) {
    std::optional<std::string> id = pick(20) == 0 ? std::nullopt : std::optional<std::string>("id" + std::to_string(pick(rows)));
    std::optional<std::string> n = pick(20) == 0 ? std::nullopt : std::optional<std::string>(std::to_string(pick(100)));
    if (pick(50) == 0) n = "x";
    const char* floats[] = {"0", "-0.0", "0.0", "nan", "1.5", "1.50", "2", "-3e2"};
    std::optional<std::string> f = pick(10) == 0 ? std::optional<std::string>(std::to_string(pick(rows * 4)) + ".25")
                                                 : std::optional<std::string>(floats[pick(8)]);
    std::optional<std::string> d = "2024-01-" + std::to_string(10 + pick(20));
    out.push_back({id, n, f, d});
  }
  return out;
}

std::string RunSpill(const std::vector<std::vector<std::optional<std::string>>>& rows, int threads, size_t batch_rows,
                int64_t max_violations, int64_t memory_limit, std::optional<SpillSummary>* spill = nullptr) {
  auto rules = LoadRuleText(kRules, "rules.yaml");
  EXPECT_TRUE(rules.ok()) << rules.status().message();
  auto plan = Plan::Compile(*rules, 0);
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  VectorSource source(SplitRows({"id", "n", "f", "d"}, rows, batch_rows));
  RunOptions options;
  options.threads = threads;
  options.max_violations = max_violations;
  options.memory_limit = memory_limit;
  options.tmp_dir = std::filesystem::temp_directory_path().string();
  options.profile_columns = true;
  auto report = RunValidation(*plan, source, options);
  EXPECT_TRUE(report.ok()) << report.status().message();
  if (!report.ok()) return "";
  if (spill) *spill = report->spill;
  report->elapsed_s = 0;
  report->threads = 0;
  report->spill.reset();
  return ReportToJson(*report);
}

TEST(EngineSpillTest, SpilledReportIsTheInMemoryOne) {
  for (uint64_t seed : {1, 2, 3}) {
    const auto rows = RandomRows(seed, 3000);
    for (int64_t max_violations : {int64_t{0}, int64_t{3}, int64_t{100000}}) {
      const std::string baseline = RunSpill(rows, 1, 1000, max_violations, 0);
      for (int threads : {1, 3}) {
        for (size_t batch_rows : {size_t{1}, size_t{7}, size_t{256}, size_t{5000}}) {
          if (batch_rows == 1 && seed > 1) continue;  // slow, and the same path
          std::optional<SpillSummary> spill;
          // 1 byte: every state spills after the first batch.
          EXPECT_EQ(RunSpill(rows, threads, batch_rows, max_violations, 1, &spill), baseline)
              << "seed " << seed << ", " << threads << " threads, " << batch_rows << " rows per batch, "
              << max_violations << " listed";
          ASSERT_TRUE(spill.has_value());
          EXPECT_GT(spill->bytes, 0);
          EXPECT_EQ(spill->checks.size(), 7u);  // 4 unique, 3 distinct_count
        }
      }
      // Limits some states pass and others not, mid-run.
      for (int64_t limit : {200000, 400000})
        EXPECT_EQ(RunSpill(rows, 2, 100, max_violations, limit), baseline) << "seed " << seed << ", limit " << limit;
    }
  }
}

TEST(EngineSpillTest, NoSpillUnderTheLimit) {
  const auto rows = RandomRows(4, 500);
  std::optional<SpillSummary> spill;
  RunSpill(rows, 2, 100, 100, int64_t{512} << 20, &spill);
  EXPECT_FALSE(spill.has_value());
  RunSpill(rows, 2, 100, 100, 0, &spill);
  EXPECT_FALSE(spill.has_value());
}

TEST(EngineSpillTest, UniqueStaysInMemoryWhenRowsAreConsumed) {
  // Row verdicts go out batch by batch, so a unique state cannot wait for
  // the end: only the distinct counts spill, and the verdicts are the same.
  auto rules = LoadRuleText(kRules, "rules.yaml");
  ASSERT_TRUE(rules.ok());
  auto plan = Plan::Compile(*rules, 0);
  ASSERT_TRUE(plan.ok());
  const auto rows = RandomRows(5, 2000);
  std::vector<std::string> errors[2];
  std::string json[2];
  for (int limited = 0; limited < 2; ++limited) {
    VectorSource source(SplitRows({"id", "n", "f", "d"}, rows, 128));
    RunOptions options;
    options.threads = 2;
    options.memory_limit = limited ? 1 : 0;
    options.tmp_dir = std::filesystem::temp_directory_path().string();
    options.on_rows = [&errors, limited](const RowVerdicts& verdicts) {
      for (size_t i = 0; i < verdicts.bad_rows.size(); ++i)
        for (uint32_t e = verdicts.error_offsets[i]; e < verdicts.error_offsets[i + 1]; ++e)
          errors[limited].push_back(std::to_string(verdicts.base_row + verdicts.bad_rows[i]) + " " +
                                    verdicts.errors[e].message);
      return Status::OK();
    };
    auto report = RunValidation(*plan, source, options);
    ASSERT_TRUE(report.ok());
    if (limited) {
      ASSERT_TRUE(report->spill.has_value());
      EXPECT_EQ(report->spill->checks, (std::vector<std::string>{"id.distinct_count", "f.distinct_count",
                                                                  "d.distinct_count"}));
    }
    report->elapsed_s = 0;
    report->threads = 0;
    report->spill.reset();
    json[limited] = ReportToJson(*report);
  }
  EXPECT_EQ(json[1], json[0]);
  EXPECT_EQ(errors[1], errors[0]);
  EXPECT_FALSE(errors[0].empty());
}

// A state spills before its table's doubling would pass the limit, not only
// once it holds more: 800 distinct 5-byte ids in batches of 100 hold a table
// of 1024 slots (16 KiB) and a 64 KiB arena block up to 768 keys; the
// doubling the 8th batch brings holds 16 + 32 KiB of tables at once. So a
// 100 KB limit spills after the 7th batch (80 KiB held, 112 KiB at the
// doubling's peak) and a 120 KB one never does; both reports are the
// in-memory one.
TEST(EngineSpillTest, SpillsBeforeATableDoublingWouldPassTheLimit) {
  auto rules = LoadRuleText("griffin: 1\ndataset: t\ncolumns:\n  id:\n    unique: true\n", "rules.yaml");
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  auto plan = Plan::Compile(*rules, 0);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  std::vector<std::vector<std::optional<std::string>>> rows;
  for (int i = 0; i < 800; ++i) rows.push_back({"id" + std::to_string(100 + i)});
  rows.push_back({std::string("id105")});  // one repeat, listed with its first row
  std::string json[3];
  std::optional<SpillSummary> spill[3];
  const int64_t limits[3] = {0, 100000, 120000};
  for (int i = 0; i < 3; ++i) {
    VectorSource source(SplitRows({"id"}, rows, 100));
    RunOptions options;
    options.threads = 1;
    options.memory_limit = limits[i];
    options.tmp_dir = std::filesystem::temp_directory_path().string();
    auto report = RunValidation(*plan, source, options);
    ASSERT_TRUE(report.ok()) << report.status().message();
    spill[i] = report->spill;
    report->elapsed_s = 0;
    report->threads = 0;
    report->spill.reset();
    json[i] = ReportToJson(*report);
  }
  EXPECT_FALSE(spill[0].has_value());
  ASSERT_TRUE(spill[1].has_value());
  EXPECT_EQ(spill[1]->checks, std::vector<std::string>{"id.unique"});
  EXPECT_FALSE(spill[2].has_value());
  EXPECT_EQ(json[1], json[0]);
  EXPECT_EQ(json[2], json[0]);
  EXPECT_NE(json[0].find("\"violations\": 1"), std::string::npos) << json[0];
}

TEST(EngineSpillTest, AnUnwritableTemporaryDirectoryIsAnInputError) {
  auto rules = LoadRuleText(kRules, "rules.yaml");
  ASSERT_TRUE(rules.ok());
  auto plan = Plan::Compile(*rules, 0);
  ASSERT_TRUE(plan.ok());
  VectorSource source(SplitRows({"id", "n", "f", "d"}, RandomRows(6, 100), 10));
  RunOptions options;
  options.memory_limit = 1;
  options.tmp_dir = "/nonexistent/griffin-spill";
  auto report = RunValidation(*plan, source, options);
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().code(), StatusCode::kInputError);
  EXPECT_NE(report.status().message().find("/nonexistent/griffin-spill"), std::string::npos);
}

}  // namespace
}  // namespace griffin
