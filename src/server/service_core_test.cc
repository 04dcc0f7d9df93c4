#include "server/service_core.h"

#include <gtest/gtest.h>

#include <future>

#include "connectors/sql/sqlite_test_util.h"
#include "server/service_test_util.h"

namespace griffin::server {
namespace {

using testing::TestService;

TEST(ServiceCoreTest, AuthenticatesAndFindsDatasets) {
  TestService service;
  ASSERT_NE(service.core, nullptr);
  ServiceCore& core = *service.core;
  EXPECT_EQ(core.Authenticate("").denial().refusal, Refusal::kUnauthenticated);
  EXPECT_EQ(core.Authenticate("Bearer nope").denial().message, "invalid API key");
  ServiceResult<Caller> caller = core.Authenticate("Bearer token-a");
  ASSERT_TRUE(caller.ok());
  EXPECT_EQ(caller->id, "a");
  EXPECT_EQ(core.DatasetFor(caller.value(), "nope").denial().refusal, Refusal::kNotFound);
  ASSERT_TRUE(core.DatasetFor(caller.value(), "steps").ok());
  EXPECT_FALSE(core.Admit(caller.value()).has_value());
  EXPECT_NE(core.DatasetsJson(caller.value()).find("\"name\": \"steps\""), std::string::npos);
  EXPECT_EQ(core.RunsJson(caller.value(), "steps", 5).denial().refusal, Refusal::kNotFound);  // --no-store
}

TEST(ServiceCoreTest, ValidatesAndScores) {
  TestService service("runs.db");
  ASSERT_NE(service.core, nullptr);
  ServiceCore& core = *service.core;
  const Caller caller = core.Authenticate("Bearer token-a").value();
  const Dataset& steps = *core.DatasetFor(caller, "steps").value();
  ServiceCore::ValidateOptions options;
  options.batch_hash = "h1";
  ServiceResult<ValidationOutcome> outcome = core.Validate(caller, steps, "x\n1\n-1\n", BodyFormat::kCsv, options);
  ASSERT_TRUE(outcome.ok()) << outcome.denial().message;
  EXPECT_EQ(outcome->quality_score, 0.5);
  EXPECT_NE(outcome->json.find("\"run_id\": \"" + outcome->run_id + "\""), std::string::npos);
  EXPECT_EQ(core.Validate(caller, steps, "y\n1\n", BodyFormat::kCsv, options).denial().refusal, Refusal::kUnprocessable);
  EXPECT_EQ(core.Validate(caller, steps, "x,x\n", BodyFormat::kCsv, options).denial().refusal, Refusal::kBadRequest);

  ServiceResult<std::string> remembered = core.ScoreMetrics(caller, R"({"dataset": "steps", "batch_hash": "h1", "loss": 1})");
  ASSERT_TRUE(remembered.ok());
  EXPECT_EQ(remembered.value(), "{\"quality_score\": 0.5, \"passed\": false, \"reasons\": [\"x.min: 1 of 2 rows\"], "
                                "\"data_score\": 0.5, \"telemetry_score\": 1}");
  ServiceResult<std::string> nan = core.ScoreMetrics(caller, R"({"dataset": "steps", "loss": "nan"})");
  ASSERT_TRUE(nan.ok());
  EXPECT_EQ(nan.value(), "{\"quality_score\": 0, \"passed\": false, \"reasons\": [\"loss.finite: loss is nan\"], "
                         "\"data_score\": null, \"telemetry_score\": 0}");
  EXPECT_EQ(core.ScoreMetrics(caller, "{").denial().refusal, Refusal::kBadRequest);
  EXPECT_EQ(core.ScoreMetrics(caller, R"({"dataset": "x"})").denial().refusal, Refusal::kNotFound);
  core.Close();  // writes the queued runs
  auto store = OpenRunStore(service.dir.Path("runs.db"));
  ASSERT_TRUE(store.ok());
  auto runs = (*store)->History("steps", 10);
  ASSERT_TRUE(runs.ok());
  ASSERT_EQ(runs->size(), 2u);  // the 200 and the 422; the 400 made no report
  EXPECT_EQ((*runs)[1].run_id, outcome->run_id);
  EXPECT_EQ((*runs)[1].key_id, "a");
  EXPECT_EQ((*runs)[1].origin, "http");
  EXPECT_EQ(core.RecorderSummary().rfind("runs: 3 written, 0 failed, 0 dropped", 0), 0u) << core.RecorderSummary();
}

// A dataset whose rules read increments of a SQLite table named under `sources:`.
TestService IncrementService(const std::string& store) {
  return TestService(store, [](TestService& service, ServiceCore::Options& options) {
    service.dir.Write("rules/events.yaml", R"(griffin: 1
dataset: events
source:
  incremental: {column: seq}
columns:
  x: {type: float64, min: 0}
)");
    sql::testing::ExecSqlite(service.dir.Path("events.db"),
                             "CREATE TABLE events(x REAL, seq INTEGER); INSERT INTO events VALUES (1, 1), (-1, 2);");
    options.config.sources["events"] = "sqlite://" + service.dir.Path("events.db") + "?table=events";
  });
}

int64_t RowsOf(const ServiceResult<ValidationOutcome>& outcome) {
  EXPECT_TRUE(outcome.ok()) << outcome.denial().message;
  if (!outcome.ok()) return -1;
  const size_t at = outcome->json.find("\"rows\": ");
  return at == std::string::npos ? -1 : std::stoll(outcome->json.substr(at + 8));
}

// POST /v1/datasets/events/validate?source=true as key "a".
ServiceResult<ValidationOutcome> ValidateEvents(ServiceCore& core, const ServiceCore::ValidateOptions& options) {
  const Caller caller = core.Authenticate("Bearer token-a").value();
  return core.ValidateSource(caller, *core.DatasetFor(caller, "events").value(), options);
}

TEST(ServiceCoreTest, ReadsEachIncrementOfASourceOnce) {
  TestService service = IncrementService("runs.db");
  ASSERT_NE(service.core, nullptr);
  ServiceCore& core = *service.core;
  ServiceCore::ValidateOptions recorded, unrecorded;
  unrecorded.store = false;

  ServiceResult<ValidationOutcome> first = ValidateEvents(core, recorded);
  EXPECT_EQ(RowsOf(first), 2);
  EXPECT_NE(first->json.find("\"scope\": \"table\""), std::string::npos) << first->json;
  EXPECT_EQ(first->quality_score, 0.5);
  EXPECT_EQ(RowsOf(ValidateEvents(core, recorded)), 0);  // nothing new

  sql::testing::ExecSqlite(service.dir.Path("events.db"), "INSERT INTO events VALUES (2, 3), (3, 4), (-5, 5);");
  EXPECT_EQ(RowsOf(ValidateEvents(core, unrecorded)), 3);  // a look: moves nothing
  // Two at once: one reads the three rows, the other waits for its record and reads none.
  auto other = std::async(std::launch::async, [&] { return RowsOf(ValidateEvents(core, recorded)); });
  const int64_t here = RowsOf(ValidateEvents(core, recorded));
  const int64_t there = other.get();
  EXPECT_EQ(std::min(here, there), 0);
  EXPECT_EQ(std::max(here, there), 3);
  core.Close();
}

TEST(ServiceCoreTest, WithoutAStoreAnIncrementalSourceIsReadWhole) {
  TestService service = IncrementService("");
  ASSERT_NE(service.core, nullptr);
  EXPECT_EQ(RowsOf(ValidateEvents(*service.core, {})), 2);
  EXPECT_EQ(RowsOf(ValidateEvents(*service.core, {})), 2);
}

// A dataset with a drift check against the last passed run, answered for key "a".
TestService DriftService(const std::string& store) {
  return TestService(store, [](TestService& service, ServiceCore::Options&) {
    service.dir.Write("rules/labels.yaml",
                      "griffin: 1\ndataset: labels\ncolumns:\n  y:\n    type: string\n"
                      "    drift: {baseline: last_passed, max: 0.2}\n");
  });
}

ServiceResult<ValidationOutcome> ValidateLabels(ServiceCore& core, std::string_view csv) {
  const Caller caller = core.Authenticate("Bearer token-a").value();
  ServiceCore::ValidateOptions options;
  options.await_record = true;  // the next call's last_passed may be this one
  return core.Validate(caller, *core.DatasetFor(caller, "labels").value(), csv, BodyFormat::kCsv, options);
}

TEST(ServiceCoreTest, JudgesDriftAgainstTheLastPassedRecordedRun) {
  TestService service = DriftService("runs.db");
  ASSERT_NE(service.core, nullptr);
  ServiceResult<ValidationOutcome> first = ValidateLabels(*service.core, "y\na\na\na\nb\n");
  ASSERT_TRUE(first.ok()) << first.denial().message;
  EXPECT_EQ(first->quality_score, 1);
  EXPECT_NE(first->json.find("\"note\": "), std::string::npos) << first->json;  // no history yet
  EXPECT_EQ(first->json.find("not evaluated"), std::string::npos) << first->json;
  ServiceResult<ValidationOutcome> moved = ValidateLabels(*service.core, "y\nb\nb\nb\nb\n");
  ASSERT_TRUE(moved.ok()) << moved.denial().message;
  EXPECT_NE(moved->json.find("\"passed\": false"), std::string::npos) << moved->json;
  EXPECT_NE(moved->json.find("\"drift\": {"), std::string::npos) << moved->json;
  service.core->Close();
}

TEST(ServiceCoreTest, WithoutAStoreDriftIsJudgedAsWithNoStore) {
  TestService service = DriftService("");
  ASSERT_NE(service.core, nullptr);
  ServiceResult<ValidationOutcome> outcome = ValidateLabels(*service.core, "y\nb\nb\n");
  ASSERT_TRUE(outcome.ok()) << outcome.denial().message;
  EXPECT_NE(outcome->json.find("--no-store"), std::string::npos) << outcome->json;
  EXPECT_EQ(outcome->quality_score, 1);
}

TEST(ServiceCoreTest, AnIncrementalSourceThatCannotBeReadIsSourceFailed) {
  TestService service("runs.db", [](TestService& service, ServiceCore::Options& options) {
    service.dir.Write("rules/events.yaml",
                      "griffin: 1\ndataset: events\nsource:\n  incremental: {column: seq}\ncolumns:\n  x: {type: float64}\n");
    options.config.sources["events"] = "sqlite://" + service.dir.Path("missing.db") + "?table=events";
  });
  ASSERT_NE(service.core, nullptr);
  ServiceResult<ValidationOutcome> failed = ValidateEvents(*service.core, {});
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.denial().refusal, Refusal::kUnavailable) << failed.denial().message;
  EXPECT_EQ(failed.denial().code, "source_failed") << failed.denial().message;
}

TEST(ServiceCoreTest, RefusesToStartWithoutKeysOrRules) {
  ServiceCore::Options options;
  options.rules_dir = "/nonexistent";
  auto no_keys = ServiceCore::Create(options);
  ASSERT_FALSE(no_keys.ok());
  EXPECT_EQ(no_keys.status().message(), "no API keys: give --config with keys (or --no-auth for a closed network)");
  options.auth = false;
  options.config.keys.push_back(ApiKey{.id = "a"});
  auto keys_dropped = ServiceCore::Create(options);
  ASSERT_FALSE(keys_dropped.ok());
  EXPECT_EQ(keys_dropped.status().message(), "--no-auth with a config that has keys: drop --no-auth, or the keys");
  options.config.keys.clear();
  auto no_dir = ServiceCore::Create(options);
  ASSERT_FALSE(no_dir.ok());
  EXPECT_EQ(no_dir.status().message(), "--rules-dir /nonexistent: not a directory");
}

}  // namespace
}  // namespace griffin::server
