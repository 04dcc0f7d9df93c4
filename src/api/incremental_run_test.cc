#include "api/incremental_run.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

namespace griffin {
namespace {

// A source whose rows reach watermark "9" (text "nine"); "9" past "9" is none.
void RegisterFakeIncrementalSource() {
  SourceAdapter adapter;
  adapter.open = [](const std::string& uri, const ReadOptions&, int) -> Result<std::unique_ptr<InputSource>> {
    return Status::InputError(uri + ": not opened in this test");
  };
  adapter.pushdown.increment = true;
  adapter.watermark = [](const std::string&, const ReadOptions& o) -> Result<std::optional<SourceWatermark>> {
    if (o.increment_after == "9") return std::optional<SourceWatermark>();
    return std::optional<SourceWatermark>(SourceWatermark{"9", "nine"});
  };
  RegisterSource("fakeinc", adapter);
}

class IncrementalRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    RegisterFakeIncrementalSource();
    dir_ = std::filesystem::temp_directory_path() / ("griffin_inc_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    auto opened = OpenRunStore((dir_ / "s.db").string());
    ASSERT_TRUE(opened.ok()) << opened.status().message();
    store_ = std::move(opened).value();
  }
  void TearDown() override {
    store_.reset();
    std::filesystem::remove_all(dir_);
  }
  // Records a run of dataset d with the plan's watermarks.
  void Record(const std::string& run_id, const IncrementPlan& plan) {
    BeginRunRequest begin;
    begin.dataset = "d";
    begin.run_id = run_id;
    begin.started_at = "2024-01-01T00:00:00Z";
    begin.griffin_version = "t";
    begin.rules_sha256 = "sha";
    begin.rules_text = "r";
    begin.rules_path = "r.yaml";
    ASSERT_TRUE(store_->BeginRun(begin).ok());
    FinishRunRequest finish;
    finish.ended_at = "2024-01-01T00:00:01Z";
    finish.report_json = "{}";
    finish.watermarks = NextWatermarks(plan);
    ASSERT_TRUE(store_->FinishRun(run_id, finish).ok());
  }
  std::filesystem::path dir_;
  std::unique_ptr<RunStore> store_;
};

TEST_F(IncrementalRunTest, FirstRunReadsTheTableThenTheIncrementFromTheRecordedWatermark) {
  ReadOptions options;
  options.incremental_column = "updated_at";
  auto first = PlanIncrement("d", {"fakeinc://u:secret@h/t"}, store_.get(), &options);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_EQ(first->source, "fakeinc://u:***@h/t");
  EXPECT_TRUE(options.increment_bounded);
  EXPECT_EQ(options.increment_after, "");
  EXPECT_EQ(options.increment_through, "9");
  Report report;
  report.checks.resize(2);
  report.checks[1].is_table = true;
  DescribeIncrement(*first, &report);
  EXPECT_EQ(report.increment->scope, "table");
  EXPECT_EQ(report.checks[0].scope, "");
  EXPECT_EQ(report.checks[1].scope, "table");
  EXPECT_EQ(report.increment->through, std::optional<std::string>("nine"));

  // Planning alone moves nothing; recording the run does.
  ReadOptions again = ReadOptions();
  again.incremental_column = "updated_at";
  ASSERT_EQ(PlanIncrement("d", {"fakeinc://u:secret@h/t"}, store_.get(), &again)->after, std::nullopt);
  Record("run-1", *first);
  auto second = PlanIncrement("d", {"fakeinc://u:secret@h/t"}, store_.get(), &again);
  ASSERT_TRUE(second.ok()) << second.status().message();
  ASSERT_TRUE(second->after.has_value());
  EXPECT_EQ(again.increment_after, "9");
  EXPECT_EQ(again.increment_through, "");  // nothing past it
  Report next;
  next.checks.resize(1);
  next.checks[0].is_table = true;
  DescribeIncrement(*second, &next);
  EXPECT_EQ(next.checks[0].scope, "increment");
  EXPECT_EQ(next.increment->after, std::optional<std::string>("nine"));
  EXPECT_EQ(next.increment->through, std::optional<std::string>("nine"));
  EXPECT_TRUE(NextWatermarks(*second).empty());
}

TEST_F(IncrementalRunTest, WithoutAStoreEveryRowIsReadAndNothingRecorded) {
  ReadOptions options;
  options.incremental_column = "updated_at";
  auto plan = PlanIncrement("d", {"fakeinc://h/t"}, nullptr, &options);
  ASSERT_TRUE(plan.ok());
  EXPECT_FALSE(options.increment_bounded);
  EXPECT_TRUE(NextWatermarks(*plan).empty());
}

TEST_F(IncrementalRunTest, OneInputAndASourceThatReadsIncrements) {
  ReadOptions options;
  options.incremental_column = "updated_at";
  auto two = PlanIncrement("d", {"fakeinc://a", "fakeinc://b"}, store_.get(), &options);
  ASSERT_FALSE(two.ok());
  EXPECT_EQ(two.status().code(), StatusCode::kUsageError);
  auto file = PlanIncrement("d", {"data.csv"}, store_.get(), &options);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.status().code(), StatusCode::kUsageError);
  EXPECT_NE(file.status().message().find("data.csv: a file cannot be read incrementally"), std::string::npos);
}

}  // namespace
}  // namespace griffin
