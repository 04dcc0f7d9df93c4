#include "connectors/kafka/stream_window.h"

#include <gtest/gtest.h>

#include "api/validator.h"
#include "connectors/kafka/message_judge.h"
#include "io/io_test_util.h"

namespace griffin::kafka {
namespace {

const char* kRules = R"(griffin: 1
dataset: w
columns:
  id: {type: string, unique: true}
  n: {type: int64, min: {value: 0, mostly: 0.9}}
table:
  - row_count: {max: 5}
  - mean: {column: n, max: 10}
  - distinct_count: {column: n, min: 1}
  - null_fraction: {column: n, max: 0.5}
)";

const CheckReport& Find(const Report& report, const std::string& name) {
  for (const CheckReport& check : report.checks)
    if (check.name == name) return check;
  static CheckReport none;
  ADD_FAILURE() << "no check " << name;
  return none;
}

// Judges `lines` as a micro-batch of the window and adds it.
void AddBatch(const Validator& validator, StreamWindow& window, const std::vector<std::string_view>& lines,
              std::map<int32_t, std::pair<int64_t, int64_t>> offsets) {
  ValidationOptions options;
  std::string state;
  options.row_offset = window.next_row();
  options.partial_state = &state;
  auto judged = JudgeMessages(validator, lines, options);
  ASSERT_TRUE(judged.ok()) << judged.status().message();
  Status added = window.Add(validator.shared_plan(), judged->report, state, offsets,
                            static_cast<int64_t>(lines.size()));
  ASSERT_TRUE(added.ok()) << added.message();
}

TEST(StreamWindow, TableChecksAreTheWindowsRowChecksTheBatchesSums) {
  auto validator = Validator::FromText(kRules, "<rules>");
  ASSERT_TRUE(validator.ok()) << validator.status().message();
  const std::vector<std::string_view> first = {R"({"id":"a","n":1})", R"({"id":"a","n":-2})",
                                               R"({"id":"b","n":3})"};
  const std::vector<std::string_view> second = {R"({"id":"a","n":40})", R"({"id":"c","n":null})",
                                                R"({"id":"d","n":3})"};
  StreamWindow window("kafka://h:1/raw");
  EXPECT_TRUE(window.empty());
  AddBatch(**validator, window, first, {{0, {100, 103}}});
  EXPECT_EQ(window.next_row(), 3);
  AddBatch(**validator, window, second, {{0, {103, 105}}, {1, {7, 8}}});
  EXPECT_EQ(window.messages(), 6);
  EXPECT_EQ(window.OffsetRanges(), "p0:100-105 p1:7-8");

  // The same records as one file, through the engine.
  std::string text;
  for (auto lines : {first, second})
    for (std::string_view line : lines) text.append(line).push_back('\n');
  auto whole = (*validator)->ValidateText(text, InputFormat::kJsonl, "file", ValidationOptions{});
  ASSERT_TRUE(whole.ok()) << whole.status().message();

  StreamWindow::Closed closed = window.Close(nullptr, (*validator)->rules());
  ASSERT_TRUE(closed.recorded.ok());
  const Report& report = closed.report;
  EXPECT_TRUE(window.empty());
  EXPECT_EQ(window.next_row(), 0);
  for (const char* name : {"table.row_count", "n.mean", "n.distinct_count", "n.null_fraction"}) {
    EXPECT_EQ(Find(report, name).observed_text, Find(whole->report, name).observed_text) << name;
    EXPECT_EQ(Find(report, name).passed, Find(whole->report, name).passed) << name;
  }
  EXPECT_EQ(Find(report, "table.row_count").observed_text, "6");
  EXPECT_FALSE(Find(report, "table.row_count").passed);  // 6 > 5; each batch of 3 alone passed
  EXPECT_EQ(Find(report, "n.mean").observed_text, "9");  // (1 - 2 + 3 + 40 + 3) / 5; the last batch's is 21.5
  // `unique` keeps its micro-batch scope: a (row 1) only; row 3 repeats a across batches
  // and went to the clean topic, so the window does not count it (the file does).
  EXPECT_EQ(Find(report, "id.unique").violations, 1);
  EXPECT_EQ(Find(whole->report, "id.unique").violations, 2);
  EXPECT_EQ(Find(report, "n.min").evaluated, 5);
  EXPECT_EQ(Find(report, "n.min").violations, 1);
  EXPECT_FALSE(Find(report, "n.min").passed);  // 0.8 < mostly 0.9
  EXPECT_EQ(report.rows, 6);
  EXPECT_EQ(report.bad_rows, 1);  // row 1: a again in its batch, and n < 0
  EXPECT_DOUBLE_EQ(report.quality_score, 5.0 / 6.0);
  EXPECT_FALSE(report.passed);
  ASSERT_FALSE(report.violations.empty());
  EXPECT_EQ(report.violations[0].row, 1);
}

TEST(StreamWindow, AStateOfOtherRulesIsRefusedAndAStoreRecordsTheRun) {
  auto validator = Validator::FromText(kRules, "<rules>");
  auto other = Validator::FromText(std::string(kRules) + "score: {min: 0.5}\n", "<other>");
  ASSERT_TRUE(validator.ok() && other.ok());
  StreamWindow window("kafka://h:1/raw");
  AddBatch(**validator, window, {R"({"id":"a","n":1})"}, {{0, {0, 1}}});
  ValidationOptions options;
  std::string state;
  options.partial_state = &state;
  options.row_offset = window.next_row();
  auto judged = JudgeMessages(**other, {R"({"id":"b","n":2})"}, options);
  ASSERT_TRUE(judged.ok());
  EXPECT_FALSE(window.Add((*other)->shared_plan(), judged->report, state, {{0, {1, 2}}}, 1).ok());
  EXPECT_EQ(window.messages(), 1);

  // A private folder that outlives the store, so the database's -wal and -shm go with it.
  const griffin::testing::TempDir folder;
  const std::string path = folder.Path("stream_window_test.db");
  auto store = OpenRunStore(path);
  ASSERT_TRUE(store.ok()) << store.status().message();
  StreamWindow::Closed closed = window.Close(store->get(), (*validator)->rules());
  ASSERT_TRUE(closed.recorded.ok()) << closed.recorded.message();
  auto history = (*store)->History("w", 10);
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), 1u);
  EXPECT_EQ((*history)[0].run_id, closed.report.run_id);
}

}  // namespace
}  // namespace griffin::kafka
