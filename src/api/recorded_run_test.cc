#include "api/recorded_run.h"

#include <gtest/gtest.h>

#include "connectors/sql/sqlite_test_util.h"
#include "io/io_test_util.h"
#include "profile/table_profile.h"

namespace griffin {
namespace {

using griffin::testing::TempDir;

// One recorded run of `validator` over `inputs` (the library's way: Begin,
// Apply, validate, Finish); the report, or the first error.
Result<Report> RecordedValidation(const std::shared_ptr<const Validator>& validator, const std::string& store,
                                  const std::vector<std::string>& inputs, const std::string& mode = "scan",
                                  bool profile_every_column = false) {
  ASSIGN_OR_RETURN(std::unique_ptr<RecordedRun> run,
                   RecordedRun::Begin(validator, store, inputs, "test", profile_every_column));
  ValidationOptions options;
  options.mode = mode;
  run->Apply(&options);
  Result<ValidationResult> result = validator->ValidatePaths(inputs, options);
  if (!result.ok()) {
    run->Abort(result.status().message());
    return result.status();
  }
  RETURN_IF_ERROR(run->Finish(&result->report));
  return std::move(result->report);
}

std::vector<RunSummary> HistoryOf(const std::string& store_uri, const std::string& dataset) {
  auto store = OpenRunStore(store_uri);
  EXPECT_TRUE(store.ok()) << store.status().message();
  if (!store.ok()) return {};
  auto runs = (*store)->History(dataset, 10);
  EXPECT_TRUE(runs.ok());
  return runs.ok() ? *runs : std::vector<RunSummary>{};
}

TEST(RecordedRunTest, RecordsTheRunWithItsReportAndOrigin) {
  TempDir dir;
  auto validator = Validator::FromText("griffin: 1\ndataset: steps\ncolumns:\n  x: {type: int64, min: 0}\n", "r.yaml");
  ASSERT_TRUE(validator.ok());
  const std::string csv = dir.Write("steps.csv", "x\n1\n-1\n");
  Result<Report> report = RecordedValidation(*validator, dir.Path("runs.db"), {csv});
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_EQ(report->bad_rows, 1);
  const std::vector<RunSummary> runs = HistoryOf(dir.Path("runs.db"), "steps");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].run_id, report->run_id);
  EXPECT_EQ(runs[0].status, "complete");
  EXPECT_EQ(runs[0].origin, "test");
  EXPECT_EQ(runs[0].bad_rows, 1);
  auto store = OpenRunStore(dir.Path("runs.db"));
  ASSERT_TRUE(store.ok());
  auto json = (*store)->ReportJson(report->run_id);
  ASSERT_TRUE(json.ok() && json->has_value());
  EXPECT_NE((*json)->find("\"run_id\": \"" + report->run_id + "\""), std::string::npos);
}

void ExpectEachIncrementReadOnce(const std::string& mode) {
  TempDir dir;
  auto validator = Validator::FromText(
      "griffin: 1\ndataset: events\nsource:\n  incremental: {column: seq}\ncolumns:\n  x: {type: float64, min: 0}\n",
      "r.yaml");
  ASSERT_TRUE(validator.ok());
  sql::testing::ExecSqlite(dir.Path("events.db"),
                           "CREATE TABLE events(x REAL, seq INTEGER); INSERT INTO events VALUES (1, 1), (-1, 2);");
  const std::vector<std::string> source{"sqlite://" + dir.Path("events.db") + "?table=events"};
  const std::string store = dir.Path("runs.db");

  Result<Report> first = RecordedValidation(*validator, store, source, mode);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_EQ(first->rows, 2);
  ASSERT_TRUE(first->increment.has_value());
  EXPECT_EQ(first->increment->scope, "table");
  EXPECT_EQ(first->increment->through, "2");
  Result<Report> again = RecordedValidation(*validator, store, source, mode);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->rows, 0);  // nothing new

  sql::testing::ExecSqlite(dir.Path("events.db"), "INSERT INTO events VALUES (2, 3), (3, 4), (-5, 5);");
  Result<Report> next = RecordedValidation(*validator, store, source, mode);
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(next->rows, 3);
  EXPECT_EQ(next->bad_rows, 1);
  EXPECT_EQ(next->increment->scope, "increment");
  EXPECT_EQ(next->increment->after, "2");
  EXPECT_EQ(next->increment->through, "5");

  // Without a record (a plain validate): every row, the watermark unmoved.
  ValidationOptions unrecorded;
  unrecorded.mode = mode;
  Result<ValidationResult> plain = (*validator)->ValidatePaths(source, unrecorded);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->report.rows, 5);
  EXPECT_EQ(RecordedValidation(*validator, store, source, mode)->rows, 0);
  EXPECT_EQ(HistoryOf(store, "events").size(), 4u);
}

// In every mode: pushdown's queries take the increment's bounds as scan's read does.
TEST(RecordedRunTest, ReadsEachIncrementOnceInEveryMode) {
  for (const std::string mode : {"scan", "pushdown", "pushdown-split"}) {
    SCOPED_TRACE(mode);
    ExpectEachIncrementReadOnce(mode);
  }
}

TEST(RecordedRunTest, StoresTheProfileOfEveryDeclaredColumnWhenAsked) {
  TempDir dir;
  auto validator = Validator::FromText(
      "griffin: 1\ndataset: steps\ncolumns:\n  x: {type: int64, min: 0}\n  s: {type: string}\n"
      "  gone: {type: string, required: false}\n",
      "r.yaml");
  ASSERT_TRUE(validator.ok());
  const std::string csv = dir.Write("steps.csv", "x,s,extra\n1,a,q\n-1,b,q\n2,a,q\n");
  // By default a record keeps the drift-checked columns' profile: none here.
  Result<Report> drift_only = RecordedValidation(*validator, dir.Path("runs.db"), {csv});
  ASSERT_TRUE(drift_only.ok()) << drift_only.status().message();
  EXPECT_EQ(drift_only->profile, nullptr);
  Result<Report> report = RecordedValidation(*validator, dir.Path("runs.db"), {csv}, "scan", true);
  ASSERT_TRUE(report.ok()) << report.status().message();
  auto store = OpenRunStore(dir.Path("runs.db"));
  ASSERT_TRUE(store.ok());
  auto state = (*store)->RunProfile(report->run_id);
  ASSERT_TRUE(state.ok() && state->has_value());
  auto profile = TableProfile::Deserialize(**state, "stored");
  ASSERT_TRUE(profile.ok()) << profile.status().message();
  std::vector<std::string> names;
  for (const auto& [name, column] : profile->columns()) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"x", "s"}));  // declared and present; not `extra`
  EXPECT_EQ(profile->rows(), 3);
  // A run that is not recorded profiles nothing (no drift check here).
  Result<ValidationResult> plain = (*validator)->ValidatePaths({csv}, {});
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->report.profile, nullptr);
}

TEST(RecordedRunTest, AFailedOrAbandonedRunIsNotLeftRunning) {
  TempDir dir;
  auto validator = Validator::FromText("griffin: 1\ndataset: steps\ncolumns:\n  x: {type: int64}\n", "r.yaml");
  ASSERT_TRUE(validator.ok());
  const std::string store = dir.Path("runs.db");
  Result<Report> missing = RecordedValidation(*validator, store, {dir.Path("missing.csv")});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kInputError);
  {
    auto abandoned = RecordedRun::Begin(*validator, store, {}, "test");
    ASSERT_TRUE(abandoned.ok());
  }
  const std::vector<RunSummary> runs = HistoryOf(store, "steps");
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].status, "aborted");
  EXPECT_EQ(runs[1].status, "aborted");
}

TEST(RecordedRunTest, AStoreOfNoFormIsAUsageErrorAndOneThatCannotOpenAStoreError) {
  TempDir dir;
  auto validator = Validator::FromText("griffin: 1\ndataset: steps\ncolumns:\n  x: {type: int64}\n", "r.yaml");
  ASSERT_TRUE(validator.ok());
  EXPECT_EQ(RecordedRun::Begin(*validator, "runs.txt", {}, "test").status().code(), StatusCode::kUsageError);
  auto unopenable = RecordedRun::Begin(*validator, dir.Write("garbage.db", std::string(4096, 'x')), {}, "test");
  ASSERT_FALSE(unopenable.ok());
  EXPECT_EQ(unopenable.status().code(), StatusCode::kStoreError);
}

TEST(RecordedRunTest, DriftIsJudgedAgainstTheLastPassedRecordedRun) {
  TempDir dir;
  auto validator = Validator::FromText(
      "griffin: 1\ndataset: labels\ncolumns:\n  y:\n    type: string\n    drift: {baseline: last_passed, max: 0.2}\n",
      "r.yaml");
  ASSERT_TRUE(validator.ok());
  const std::string store = dir.Path("runs.db");
  const auto drift_of = [](const Report& report) -> const CheckReport* {
    for (const CheckReport& check : report.checks)
      if (check.name == "y.drift") return &check;
    return nullptr;
  };
  Result<Report> first = RecordedValidation(*validator, store, {dir.Write("a.csv", "y\na\na\na\nb\n")});
  ASSERT_TRUE(first.ok()) << first.status().message();
  ASSERT_NE(drift_of(*first), nullptr);
  EXPECT_TRUE(first->passed);  // no history yet
  EXPECT_NE(drift_of(*first)->note, "");
  Result<Report> same = RecordedValidation(*validator, store, {dir.Write("b.csv", "y\na\na\nb\na\n")});
  ASSERT_TRUE(same.ok());
  EXPECT_TRUE(same->passed);
  Result<Report> moved = RecordedValidation(*validator, store, {dir.Write("c.csv", "y\nb\nb\nb\nb\n")});
  ASSERT_TRUE(moved.ok());
  EXPECT_FALSE(moved->passed);
  EXPECT_FALSE(drift_of(*moved)->passed);
  // Not recorded, with no store to read: last_passed has no history, and the check passes with its note.
  HistoryContext none{nullptr, "no store was given", "", {}};
  ValidationOptions unrecorded;
  unrecorded.history = &none;
  Result<ValidationResult> plain = (*validator)->ValidatePaths({dir.Path("c.csv")}, unrecorded);
  ASSERT_TRUE(plain.ok());
  EXPECT_TRUE(plain->report.passed);
  EXPECT_NE(drift_of(plain->report)->note.find("no store was given"), std::string::npos) << drift_of(plain->report)->note;
}

}  // namespace
}  // namespace griffin
