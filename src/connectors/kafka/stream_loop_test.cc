// RunStream against the test broker: a batch of clean, bad and malformed
// messages lands in the clean and dead-letter topics, and a stop request
// returns the totals. (The CLI's behaviour, kills and fencing:
// tests/python/test_stream.py.)
#include "connectors/kafka/stream_loop.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <thread>

#include "connectors/kafka/kafka_test_util.h"

namespace griffin::kafka {
namespace {

TEST(RunStream, SplitsCleanAndDeadLetterAndStopsOnRequest) {
  bool skip = false;
  std::string broker = test::TestBroker(&skip);
  if (broker.empty()) {
    if (skip) GTEST_SKIP() << "GRIFFIN_NO_KAFKA=1";
    return;
  }
  std::string raw = test::UniqueTopic("loop-raw"), clean = test::UniqueTopic("loop-clean"),
              dlq = test::UniqueTopic("loop-dlq");
  for (const std::string& topic : {raw, clean, dlq}) test::CreateTopic(broker, topic, 1);
  test::ProducePlain(broker, raw, {R"({"id": "a", "n": 1})", R"({"id": "b", "n": -1})", "oops", R"({"id": "c", "n": 2})"});

  std::string rules = "/tmp/" + test::UniqueTopic("loop-rules") + ".yaml";
  std::ofstream(rules) << "griffin: 1\ndataset: loop\ncolumns:\n  id: {type: string}\n  n: {type: int64, min: 0}\n";
  StreamOptions options;
  options.rules_path = rules;
  options.from = *ParseKafkaUri("kafka://" + broker + "/" + raw);
  options.to = *ParseKafkaUri("kafka://" + broker + "/" + clean);
  options.dead_letter = *ParseKafkaUri("kafka://" + broker + "/" + dlq);
  options.group = test::UniqueTopic("loop-group");
  options.batch_ms = 20;
  std::atomic<bool> stop{false};
  Result<StreamTotals> totals = Status::Internal("not run");
  std::thread runner([&] { totals = RunStream(options, stop); });
  std::vector<std::string> clean_values = test::ReadAll(broker, clean, "read_committed", 2);
  std::vector<std::string> dlq_values = test::ReadAll(broker, dlq, "read_committed", 2);
  stop = true;
  runner.join();
  std::remove(rules.c_str());
  ASSERT_TRUE(totals.ok()) << totals.status().message();
  EXPECT_EQ(clean_values, (std::vector<std::string>{R"({"id": "a", "n": 1})", R"({"id": "c", "n": 2})"}));
  EXPECT_EQ(dlq_values, (std::vector<std::string>{R"({"id": "b", "n": -1})", "oops"}));
  EXPECT_EQ(totals->records_in, 4);
  EXPECT_EQ(totals->clean, 2);
  EXPECT_EQ(totals->dead_letter, 2);
  EXPECT_EQ(totals->next_version, 3);
}

TEST(RunStream, RejectsBatchRecordsBelowOne) {
  std::atomic<bool> stop{false};
  StreamOptions options;
  options.batch_records = 0;
  auto totals = RunStream(options, stop);
  ASSERT_FALSE(totals.ok());
  EXPECT_EQ(totals.status().code(), StatusCode::kUsageError);
}

}  // namespace
}  // namespace griffin::kafka
