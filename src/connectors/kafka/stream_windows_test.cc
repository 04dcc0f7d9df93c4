#include "connectors/kafka/stream_windows.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "connectors/kafka/message_judge.h"
#include "io/io_test_util.h"

namespace griffin::kafka {
namespace {

const std::string kRules = R"(griffin: 1
dataset: ws
columns:
  id: {type: string}
  n: {type: int64, min: 0}
table:
  - row_count: {max: 3}
)";

std::shared_ptr<const Validator> Compile(const std::string& text) {
  auto validator = Validator::FromText(text, "<rules>");
  EXPECT_TRUE(validator.ok()) << validator.status().message();
  return *validator;
}

// Judges `lines` as the next batch of the window and adds it (offsets of partition 0 from `first`).
void AddBatch(const Validator& validator, StreamWindows& windows, const std::vector<std::string_view>& lines,
              int64_t first) {
  ValidationOptions options;
  std::string state;
  options.row_offset = windows.next_row();
  options.partial_state = &state;
  auto judged = JudgeMessages(validator, lines, options);
  ASSERT_TRUE(judged.ok()) << judged.status().message();
  const int64_t count = static_cast<int64_t>(lines.size());
  windows.Add(validator, judged->report, state, {{0, {first, first + count}}}, count);
}

// The griffin_stream_windows_total sample's value.
std::string Windows(const StreamMetrics& metrics) {
  const std::string text = metrics.Text(), name = "\ngriffin_stream_windows_total ";
  const size_t at = text.find(name);
  if (at == std::string::npos) return "";
  const size_t value = at + name.size();
  return text.substr(value, text.find('\n', value) - value);
}

TEST(StreamWindows, NoneWithoutAStoreOrMetrics) {
  auto windows = StreamWindows::Open({"kafka://h:1/raw"}, "");
  ASSERT_TRUE(windows.ok());
  EXPECT_EQ(*windows, nullptr);
}

TEST(StreamWindows, AWindowOfNRecordsCutsTheBatchAtItsEndAndClosesThere) {
  auto validator = Compile(kRules + "stream:\n  window: 4\n");
  StreamMetrics metrics;
  auto opened = StreamWindows::Open({"kafka://h:1/raw", 0, &metrics}, "");
  ASSERT_TRUE(opened.ok() && *opened);
  StreamWindows& windows = **opened;
  EXPECT_EQ(windows.CutBatch(10, validator->rules()), 4);
  AddBatch(*validator, windows, {R"({"id":"a","n":1})", R"({"id":"b","n":2})", R"({"id":"c","n":3})"}, 0);
  EXPECT_EQ(windows.CutBatch(10, validator->rules()), 1);  // one record left in the window
  EXPECT_EQ(windows.next_row(), 3);
  EXPECT_FALSE(windows.IsDue(validator->rules()));  // N records: never due by time
  EXPECT_EQ(Windows(metrics), "0");
  AddBatch(*validator, windows, {R"({"id":"d","n":4})"}, 3);
  EXPECT_EQ(Windows(metrics), "1");  // full: closed by Add
  EXPECT_EQ(windows.next_row(), 0);
  EXPECT_NE(metrics.Text().find("griffin_stream_window_quality_score 1"), std::string::npos);
  EXPECT_EQ(windows.CutBatch(2, validator->rules()), 2);
  windows.Close(validator->rules());  // empty: nothing closes
  EXPECT_EQ(Windows(metrics), "1");
}

TEST(StreamWindows, ATimedWindowIsDueWhenOldEnoughAndClosingRecordsARun) {
  // --window-s (window_ms) wins over the rule file's window of records.
  auto validator = Compile(kRules + "stream:\n  window: 4\n");
  // A private folder that outlives the store, so the database's -wal and -shm go with it.
  const griffin::testing::TempDir folder;
  const std::string path = folder.Path("stream_windows_test.db");
  auto opened = StreamWindows::Open({"kafka://h:1/raw", 30}, path);
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  ASSERT_TRUE(*opened);
  StreamWindows& windows = **opened;
  EXPECT_EQ(windows.CutBatch(10, validator->rules()), 10);
  EXPECT_FALSE(windows.IsDue(validator->rules()));  // empty
  for (int64_t first : {0, 2, 4}) {
    AddBatch(*validator, windows, {R"({"id":"a","n":1})", R"({"id":"b","n":-1})"}, first);
  }
  EXPECT_EQ(windows.next_row(), 6);  // 6 records, more than 4: still open
  std::this_thread::sleep_for(std::chrono::milliseconds(40));
  ASSERT_TRUE(windows.IsDue(validator->rules()));
  windows.Close(validator->rules());
  EXPECT_FALSE(windows.IsDue(validator->rules()));

  auto store = OpenRunStore(path);
  ASSERT_TRUE(store.ok()) << store.status().message();
  auto history = (*store)->History("ws", 10);
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), 1u);
  EXPECT_EQ((*history)[0].rows, 6);
}

TEST(StreamWindows, WithoutAWindowInTheRulesAWindowIsAMinute) {
  auto validator = Compile(kRules);
  StreamMetrics metrics;
  auto opened = StreamWindows::Open({"kafka://h:1/raw", 0, &metrics}, "");
  ASSERT_TRUE(opened.ok() && *opened);
  EXPECT_EQ((*opened)->CutBatch(10, validator->rules()), 10);
  AddBatch(*validator, **opened, {R"({"id":"a","n":1})"}, 0);
  EXPECT_FALSE((*opened)->IsDue(validator->rules()));
  (*opened)->Close(validator->rules());
  EXPECT_EQ(Windows(metrics), "1");
}

TEST(StreamWindows, AStoreThatDoesNotOpenIsAnError) {
  const std::string file = ::testing::TempDir() + "/stream_windows_test.file";
  std::ofstream(file) << "a file, not a folder\n";
  EXPECT_FALSE(StreamWindows::Open({"kafka://h:1/raw"}, file + "/runs.db").ok());
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace griffin::kafka
