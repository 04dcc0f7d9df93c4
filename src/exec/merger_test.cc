#include "exec/merger.h"

#include <gtest/gtest.h>

#include "exec/batch_evaluator.h"
#include "exec/test_batches.h"
#include "rules/rule_loader.h"

namespace griffin {
namespace {

using testing::AddTextColumn;

std::shared_ptr<const Plan> Compile(const std::string& yaml) {
  auto rules = LoadRuleText(yaml, "rules.yaml");
  EXPECT_TRUE(rules.ok()) << rules.status().message();
  auto plan = Plan::Compile(*rules, 0);
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  return *plan;
}

// A CSV-like batch: text columns, a raw record per row, and malformed rows
// (no values, a MalformedRecord) at `malformed_rows`.
std::shared_ptr<Batch> CsvBatch(const std::vector<std::string>& names,
                                const std::vector<std::vector<std::optional<std::string>>>& rows,
                                const std::vector<int64_t>& malformed_rows = {}) {
  auto batch = std::make_shared<Batch>();
  for (size_t c = 0; c < names.size(); ++c) {
    std::vector<std::optional<std::string>> values;
    for (const auto& row : rows) values.push_back(row[c]);
    AddTextColumn(batch.get(), names[c], values);
  }
  batch->num_rows = static_cast<int64_t>(rows.size());
  for (size_t r = 0; r < rows.size(); ++r) batch->raw_records.emplace_back("raw");
  if (!malformed_rows.empty()) {
    batch->malformed.assign(rows.size(), 0);
    for (int64_t r : malformed_rows) {
      batch->malformed[r] = 1;
      batch->malformed_records.push_back({r, "x,y", "record has 2 fields, expected 1"});
    }
  }
  return batch;
}

// Evaluates and merges `batches` in order; collects every row verdict.
struct MergeRun {
  std::vector<RowVerdicts> verdicts;  // copies (batch pointers stay valid: `batches` owns them)
  std::vector<std::vector<uint8_t>> bad;  // per batch: the `bad` bytes (verdicts[i].bad is gone)
  Report report;
};

MergeRun MergeAll(std::shared_ptr<const Plan> plan, const std::vector<std::shared_ptr<Batch>>& batches,
             MergerOptions options = {}, bool text_input = true) {
  MergeRun run;
  BatchEvaluator evaluator(plan);
  Merger merger(plan, std::move(options), [&run](const RowVerdicts& v) {
    RowVerdicts copy = v;
    copy.columns = nullptr;
    copy.bad = nullptr;
    run.bad.emplace_back(v.bad, v.bad + v.batch->num_rows);
    run.verdicts.push_back(std::move(copy));
    return Status::OK();
  });
  for (const auto& batch : batches) {
    auto result = evaluator.Evaluate(batch);
    EXPECT_TRUE(result.ok()) << result.status().message();
    EXPECT_TRUE(merger.Merge(**result).ok());
  }
  run.report = merger.Finish(text_input);
  return run;
}

// The checks named in `verdicts` for batch row `row` (empty when the row is clean).
std::vector<std::string> ErrorChecks(const RowVerdicts& verdicts, int32_t row) {
  std::vector<std::string> checks;
  for (size_t i = 0; i < verdicts.bad_rows.size(); ++i) {
    if (verdicts.bad_rows[i] != row) continue;
    for (uint32_t e = verdicts.error_offsets[i]; e < verdicts.error_offsets[i + 1]; ++e)
      checks.push_back(verdicts.errors[e].check);
  }
  return checks;
}

const char* kRules = R"(griffin: 1
dataset: t
columns:
  id: {not_null: true}
  note: {length: {max: 1, severity: warn}}
)";

TEST(MergerTest, MaxViolationsCountsPerCheck) {
  // 6 warn violations come first; the 2 error violations come last.
  auto batch = CsvBatch({"id", "note"}, {{"a", "xx"}, {"b", "xx"}, {"c", "xx"}, {"d", "xx"}, {"e", "xx"},
                                         {"f", "xx"}, {std::nullopt, "x"}, {std::nullopt, "x"}});
  MergerOptions options;
  options.max_violations = 3;
  MergeRun run = MergeAll(Compile(kRules), {batch}, options);
  int listed_warn = 0, listed_error = 0;
  for (const ViolationReport& v : run.report.violations) {
    listed_warn += v.check == "note.length";
    listed_error += v.check == "id.not_null";
  }
  EXPECT_EQ(listed_warn, 3);
  EXPECT_EQ(listed_error, 2);  // not hidden by the noisy warn check
  EXPECT_TRUE(run.report.violations_truncated);
  ASSERT_EQ(run.report.violations.size(), 5u);
  EXPECT_EQ(run.report.violations.back().row, 7);
}

TEST(MergerTest, ListStaysInRowOrderAcrossBatches) {
  auto first = CsvBatch({"id", "note"}, {{"a", "xx"}, {std::nullopt, "x"}});
  auto second = CsvBatch({"id", "note"}, {{std::nullopt, "xx"}, {"b", "xx"}});
  MergerOptions options;
  options.max_violations = 2;
  MergeRun run = MergeAll(Compile(kRules), {first, second}, options);
  std::vector<std::pair<int64_t, std::string>> listed;
  for (const ViolationReport& v : run.report.violations) listed.emplace_back(v.row, v.check);
  const std::vector<std::pair<int64_t, std::string>> expected = {
      {0, "note.length"}, {1, "id.not_null"}, {2, "id.not_null"}, {2, "note.length"}};
  EXPECT_EQ(listed, expected);
  EXPECT_TRUE(run.report.violations_truncated);  // note.length: 3 violations, 2 listed
}

TEST(MergerTest, NothingTruncatedAtTheCap) {
  auto batch = CsvBatch({"id", "note"}, {{std::nullopt, "xx"}, {std::nullopt, "xx"}});
  MergerOptions options;
  options.max_violations = 2;
  EXPECT_FALSE(MergeAll(Compile(kRules), {batch}, options).report.violations_truncated);
}

TEST(MergerTest, MalformedCheckComesFirstAndFailsTheRun) {
  auto batch = CsvBatch({"id", "note"}, {{"a", "x"}, {std::nullopt, std::nullopt}, {"c", "x"}, {"d", "x"}}, {1});
  MergeRun run = MergeAll(Compile(kRules), {batch});
  ASSERT_FALSE(run.report.checks.empty());
  const CheckReport& malformed = run.report.checks[0];
  EXPECT_EQ(malformed.name, "malformed");
  EXPECT_EQ(malformed.check, "malformed");
  EXPECT_FALSE(malformed.column.has_value());
  EXPECT_EQ(malformed.severity, "error");
  EXPECT_EQ(malformed.evaluated, 4);
  EXPECT_EQ(malformed.violations, 1);
  EXPECT_DOUBLE_EQ(malformed.pass_rate, 0.75);
  EXPECT_DOUBLE_EQ(malformed.mostly, 1.0);
  EXPECT_FALSE(malformed.passed);
  EXPECT_FALSE(run.report.passed);
  EXPECT_EQ(run.report.bad_rows, 1);
  EXPECT_EQ(run.report.checks[1].name, "id.not_null");
  EXPECT_EQ(run.report.checks[1].evaluated, 3);  // the malformed row is not evaluated
}

TEST(MergerTest, SourceMalformedMostlyToleratesMalformedRecords) {
  const std::string rules = std::string(kRules) + "source:\n  malformed: {mostly: 0.75}\n";
  auto batch = CsvBatch({"id", "note"}, {{"a", "x"}, {std::nullopt, std::nullopt}, {"c", "x"}, {"d", "x"}}, {1});
  MergeRun run = MergeAll(Compile(rules), {batch});
  EXPECT_DOUBLE_EQ(run.report.checks[0].mostly, 0.75);
  EXPECT_TRUE(run.report.checks[0].passed);
  EXPECT_TRUE(run.report.passed);
  EXPECT_EQ(run.report.bad_rows, 1);  // tolerated, yet still a bad row
}

TEST(MergerTest, TypedInputHasNoMalformedCheck) {
  auto batch = testing::TextBatch("id", {"a", "b"});  // no raw records: not a text batch
  batch->columns.push_back(batch->columns[0]);
  batch->columns[1].name = "note";
  MergeRun run = MergeAll(Compile(kRules), {batch}, {}, /*text_input=*/false);
  ASSERT_FALSE(run.report.checks.empty());
  EXPECT_EQ(run.report.checks[0].name, "id.not_null");
}

TEST(MergerTest, TextInputWithoutRowsStillHasTheMalformedCheck) {
  MergeRun run = MergeAll(Compile(kRules), {}, {}, /*text_input=*/true);
  ASSERT_FALSE(run.report.checks.empty());
  EXPECT_EQ(run.report.checks[0].name, "malformed");
  EXPECT_TRUE(run.report.checks[0].passed);
}

TEST(MergerTest, SchemaErrorMakesEveryRowBad) {
  // `note` is required and missing: every row is bad, each reason names it.
  auto batch = CsvBatch({"id"}, {{"a"}, {std::nullopt}, {"c"}});
  MergeRun run = MergeAll(Compile(kRules), {batch});
  ASSERT_EQ(run.report.schema_errors.size(), 1u);
  EXPECT_EQ(run.report.rows, 3);
  EXPECT_EQ(run.report.bad_rows, 3);
  EXPECT_EQ(run.report.quality_score, 0.0);
  EXPECT_FALSE(run.report.passed);
  EXPECT_EQ(run.report.rows_before_schema_error, 0);
  // Per-check counts as usual.
  EXPECT_EQ(run.report.checks[1].violations, 1);
  ASSERT_EQ(run.verdicts.size(), 1u);
  const RowVerdicts& verdicts = run.verdicts[0];
  EXPECT_EQ(verdicts.bad_rows, (std::vector<int32_t>{0, 1, 2}));
  EXPECT_EQ(run.bad[0], (std::vector<uint8_t>{1, 1, 1}));
  EXPECT_EQ(ErrorChecks(verdicts, 0), (std::vector<std::string>{"schema"}));
  EXPECT_EQ(ErrorChecks(verdicts, 1), (std::vector<std::string>{"schema", "id.not_null"}));
  EXPECT_NE(verdicts.errors[0].message.find("note"), std::string::npos);
}

TEST(MergerTest, MalformedRowUnderASchemaErrorListsMalformedFirst) {
  auto batch = CsvBatch({"id"}, {{"a"}, {std::nullopt}}, {1});
  MergeRun run = MergeAll(Compile(kRules), {batch});
  EXPECT_EQ(ErrorChecks(run.verdicts[0], 1), (std::vector<std::string>{"malformed", "schema"}));
}

TEST(MergerTest, SchemaErrorInALaterBatchIsReportedAsLate) {
  auto good = CsvBatch({"id", "note"}, {{"a", "x"}, {"b", "x"}});
  auto bad = CsvBatch({"id"}, {{"c"}});
  MergeRun run = MergeAll(Compile(kRules), {good, bad});
  EXPECT_EQ(run.report.bad_rows, 3);
  EXPECT_EQ(run.report.quality_score, 0.0);
  EXPECT_EQ(run.report.rows_before_schema_error, 2);  // rows 0-1 went out as clean
  EXPECT_TRUE(run.verdicts[0].bad_rows.empty());
  EXPECT_EQ(run.verdicts[1].bad_rows, (std::vector<int32_t>{0}));
}

TEST(MergerTest, KnownSchemaErrorsMakeRowsBadFromTheFirstBatch) {
  auto good = CsvBatch({"id", "note"}, {{"a", "x"}, {"b", "x"}});
  auto bad = CsvBatch({"id"}, {{"c"}});
  MergerOptions options;
  options.known_schema_errors = {{"note", "required column 'note' is missing from the input"}};
  MergeRun run = MergeAll(Compile(kRules), {good, bad}, options);
  EXPECT_EQ(run.report.rows_before_schema_error, 0);
  ASSERT_EQ(run.report.schema_errors.size(), 1u);  // the same error found again is not repeated
  EXPECT_EQ(run.verdicts[0].bad_rows, (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(ErrorChecks(run.verdicts[0], 1), (std::vector<std::string>{"schema"}));
}

TEST(MergerTest, SchemaErrorWithoutRowsScoresZero) {
  auto header_only = CsvBatch({"id"}, {});
  MergeRun run = MergeAll(Compile(kRules), {header_only});
  EXPECT_EQ(run.report.rows, 0);
  EXPECT_EQ(run.report.bad_rows, 0);
  EXPECT_EQ(run.report.quality_score, 0.0);
  EXPECT_FALSE(run.report.passed);
}

// ReserveForRows sizes each set for its keys so far scaled to the expected
// rows: a column of 4 values keeps a small table, an all-distinct one is sized
// for every row (no rehashing on the way up), and the report is unchanged.
TEST(MergerTest, ReserveForRowsScalesEachSetByItsKeysSoFar) {
  auto plan = Compile(R"(griffin: 1
dataset: t
columns:
  id: {unique: true}
  currency: {not_null: true}
table:
  - distinct_count: {column: currency, max: 10}
)");
  std::vector<std::vector<std::optional<std::string>>> rows;
  const char* currencies[] = {"USD", "EUR", "GBP", "JPY"};
  for (int r = 0; r < 4096; ++r) rows.push_back({"k" + std::to_string(r), std::string(currencies[r % 4])});
  auto batch = CsvBatch({"id", "currency"}, rows);
  constexpr int64_t kExpectedRows = 4'000'000;

  auto state_bytes_after_reserve = [&](bool reserve) {
    BatchEvaluator evaluator(plan);
    Merger merger(plan, MergerOptions{});
    auto result = evaluator.Evaluate(batch);
    EXPECT_TRUE(result.ok());
    EXPECT_TRUE(merger.Merge(**result).ok());
    const int64_t before = merger.state_bytes();
    if (reserve) merger.ReserveForRows(kExpectedRows);
    return std::pair(before, merger.state_bytes());
  };
  auto [before, after] = state_bytes_after_reserve(true);
  // 4M distinct ids at load 3/4 need 2^23 slots of 16 bytes (128 MiB); the
  // currency set keeps 4 keys in a table far under a MiB.
  EXPECT_GE(after - before, int64_t{100} << 20);
  EXPECT_LT(after - before, int64_t{160} << 20);

  auto currency_only = Compile("griffin: 1\ndataset: t\ncolumns:\n  currency: {not_null: true}\n"
                               "table:\n  - distinct_count: {column: currency, max: 10}\n");
  BatchEvaluator evaluator(currency_only);
  Merger merger(currency_only, MergerOptions{});
  auto result = evaluator.Evaluate(CsvBatch({"currency"}, [&] {
    std::vector<std::vector<std::optional<std::string>>> only;
    for (const auto& row : rows) only.push_back({row[1]});
    return only;
  }()));
  ASSERT_TRUE(result.ok());
  ASSERT_TRUE(merger.Merge(**result).ok());
  const int64_t small_before = merger.state_bytes();
  merger.ReserveForRows(kExpectedRows);
  EXPECT_LT(merger.state_bytes() - small_before, int64_t{1} << 20) << "a 4-value column reserved for every row";
  Report report = merger.Finish(true);
  ASSERT_EQ(report.checks.size(), 3u);  // malformed, currency.not_null, currency.distinct_count
  EXPECT_EQ(report.checks[2].name, "currency.distinct_count");
  EXPECT_EQ(report.checks[2].observed_text, "4");
}

}  // namespace
}  // namespace griffin
