#include "history/history_checks.h"

#include <gtest/gtest.h>

#include <fstream>

#include "exec/test_batches.h"
#include "profile/drift.h"
#include "profile/table_profile.h"
#include "rules/rule_loader.h"
#include "store/store_test_util.h"

namespace griffin {
namespace {

using store_test::TempDir;

std::shared_ptr<const Plan> CompileRules(const std::string& baseline, const std::string& severity = "error") {
  auto rules = LoadRuleText("griffin: 1\ndataset: d\ncolumns:\n  c:\n    drift: {baseline: '" + baseline +
                                "', max: 0.1, severity: " + severity + "}\n",
                            "r.yaml");
  EXPECT_TRUE(rules.ok()) << rules.status().message();
  auto plan = Plan::Compile(*rules, 0);
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  return *plan;
}

std::shared_ptr<const TableProfile> Profile(const std::vector<std::optional<std::string>>& values) {
  Batch batch;
  testing::AddTextColumn(&batch, "c", values);
  auto profile = std::make_shared<TableProfile>();
  profile->AddBatch(batch);
  return profile;
}

// The report as the merger leaves it: the drift check not yet evaluated.
Report Unjudged(std::shared_ptr<const TableProfile> profile) {
  Report report;
  CheckReport check;
  check.name = "c.drift";
  check.column = "c";
  check.check = "drift";
  check.severity = "error";
  check.is_table = true;
  check.note = "not evaluated";
  report.checks.push_back(check);
  report.profile = std::move(profile);
  return report;
}

void RecordRun(RunStore& store, const std::string& run_id, bool passed, const TableProfile& profile) {
  ASSERT_TRUE(store.BeginRun(store_test::MakeBegin("d", run_id)).ok());
  FinishRunRequest finish = store_test::MakeFinish(run_id, passed ? 0 : 1);
  finish.profile_state = profile.Serialize();
  ASSERT_TRUE(store.FinishRun(run_id, finish).ok());
}

TEST(HistoryChecks, LastPassedComparesWithTheStoredProfile) {
  TempDir dir;
  auto store = OpenRunStore(dir.path() + "/s.db");
  ASSERT_TRUE(store.ok()) << store.status().message();
  auto plan = CompileRules("last_passed");

  // No passed run yet: passes with a note.
  Report first = Unjudged(Profile({"a", "b"}));
  EvaluateHistoryChecks(*plan, HistoryContext{store->get()}, &first);
  EXPECT_TRUE(first.passed && first.checks[0].passed);
  EXPECT_NE(first.checks[0].note.find("nothing to compare with yet"), std::string::npos);
  EXPECT_TRUE(first.checks[0].observed.is_null());

  const auto baseline = Profile({"a", "a", "b", "b"});
  RecordRun(**store, "passed-run", true, *baseline);
  RecordRun(**store, "failed-run", false, *Profile({"z"}));
  const auto current = Profile({"a", "b", "b", "b"});
  Report second = Unjudged(current);
  EvaluateHistoryChecks(*plan, HistoryContext{store->get()}, &second);
  const CheckReport& check = second.checks[0];
  EXPECT_FALSE(check.passed);
  EXPECT_FALSE(second.passed);
  EXPECT_EQ(check.observed.number, 0.25);  // b: 1/2 -> 3/4
  EXPECT_EQ(check.note, "");
  EXPECT_NE(check.message.find("c drifted from last_passed: l-infinity 0.25 > max 0.1"), std::string::npos)
      << check.message;
  EXPECT_NE(check.detail_json.find("\"baseline_run_id\": \"passed-run\""), std::string::npos) << check.detail_json;
  EXPECT_EQ(check.detail_key, "drift");
}

TEST(HistoryChecks, BaselinesThatCannotBeHadFailTheCheckOnly) {
  TempDir dir;
  auto store = OpenRunStore(dir.path() + "/s.db");
  ASSERT_TRUE(store.ok()) << store.status().message();
  Report unknown = Unjudged(Profile({"a"}));
  EvaluateHistoryChecks(*CompileRules("run:nope"), HistoryContext{store->get()}, &unknown);
  EXPECT_FALSE(unknown.checks[0].passed);
  EXPECT_NE(unknown.checks[0].message.find("baseline run:nope: no run with that id"), std::string::npos);

  // A warn check that fails leaves the run passed.
  Report warned = Unjudged(Profile({"a"}));
  warned.checks[0].severity = "warn";  // as the merger reports a warn check
  EvaluateHistoryChecks(*CompileRules("run:nope", "warn"), HistoryContext{store->get()}, &warned);
  EXPECT_FALSE(warned.checks[0].passed);
  EXPECT_TRUE(warned.passed);

  Report no_store = Unjudged(Profile({"a"}));
  EvaluateHistoryChecks(*CompileRules("run:x"), HistoryContext{nullptr, "--no-store was given"}, &no_store);
  EXPECT_NE(no_store.checks[0].message.find("needs the run store, and there is none (--no-store was given)"),
            std::string::npos);

  Report missing = Unjudged(Profile({"a"}));
  HistoryContext context{nullptr, "", dir.path()};
  EvaluateHistoryChecks(*CompileRules("profile:none.state"), context, &missing);
  EXPECT_FALSE(missing.checks[0].passed);
  EXPECT_NE(missing.checks[0].message.find("none.state"), std::string::npos) << missing.checks[0].message;
}

TEST(HistoryChecks, ProfileFileFromTheRulesFolder) {
  TempDir dir;
  const auto baseline = Profile({"a", "a", "b", "b"});
  std::ofstream(dir.path() + "/train.state", std::ios::binary) << baseline->Serialize();
  Report report = Unjudged(Profile({"a", "a", "b", "b", std::nullopt}));
  EvaluateHistoryChecks(*CompileRules("profile:train.state"), HistoryContext{nullptr, "", dir.path()}, &report);
  EXPECT_TRUE(report.checks[0].passed) << report.checks[0].message;
  EXPECT_EQ(report.checks[0].observed.number, 0.0);
  EXPECT_NE(report.checks[0].detail_json.find("\"baseline_run_id\": null"), std::string::npos);
}

}  // namespace
}  // namespace griffin
