// The unique state topic against the test broker: what a committed transaction
// wrote is read back, an aborted one's keys are not, records that are not
// Griffin's are skipped with a line, and the limits' tombstones are written.
#include "connectors/kafka/stream_unique_io.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "connectors/kafka/kafka_test_util.h"

namespace griffin::kafka {
namespace {

// Writes `state`'s pending keys and tombstones in one transaction of `producer`, committed or aborted.
size_t WriteInTransaction(rd_kafka_t* producer, const KafkaUri& uri, const StreamUniqueState& state, bool commit) {
  KafkaError error(rd_kafka_begin_transaction(producer));
  EXPECT_FALSE(error) << rd_kafka_error_string(error.get());
  const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch()).count();
  auto written = WriteUniqueState(producer, uri, state, now_ms);  // first seen now: within the retention
  EXPECT_TRUE(written.ok()) << written.status().message();
  // The records reach the broker before an abort, as griffin stream's mostly
  // do (it aborts after a commit attempt, which flushes, or after an abortable
  // error): the aborted keys are then written and must be skipped. Aborting with records still queued
  // races librdkafka 2.0.2's partition registration: its EndTxn(ABORT) can
  // reach the coordinator while the last commit is still its state, and the
  // broker's INVALID_TXN_STATE is fatal to the producer (librdkafka #4849;
  // 9 of 40 runs here, two at a time).
  EXPECT_EQ(rd_kafka_flush(producer, 30000), RD_KAFKA_RESP_ERR_NO_ERROR);
  error.reset(commit ? rd_kafka_commit_transaction(producer, 30000) : rd_kafka_abort_transaction(producer, 30000));
  EXPECT_FALSE(error) << rd_kafka_error_string(error.get());
  return written.ok() ? *written : 0;
}

TEST(UniqueStateIo, ReadsWhatCommittedSkipsTheAbortedAndWritesTombstones) {
  bool skip = false;
  std::string broker = test::TestBroker(&skip);
  if (broker.empty()) {
    if (skip) GTEST_SKIP() << "GRIFFIN_NO_KAFKA=1";
    return;
  }
  const std::string topic = test::UniqueTopic("unique-io");
  test::CreateTopic(broker, topic, 2);
  const KafkaUri uri = *ParseKafkaUri("kafka://" + broker + "/" + topic);
  auto producer = NewKafkaClient(KafkaRole::kProducer, {{"bootstrap.servers", broker, ""},
                                                         {"transactional.id", test::UniqueTopic("unique-io-tx"), ""}});
  ASSERT_TRUE(producer.ok()) << producer.status().message();
  KafkaError error(rd_kafka_init_transactions(producer->get(), 30000));
  ASSERT_FALSE(error) << rd_kafka_error_string(error.get());

  StreamUniqueState committed({});
  committed.Add("id.unique", "a");
  committed.Add("id.unique", "b");
  EXPECT_EQ(WriteInTransaction(producer->get(), uri, committed, true), 0u);
  StreamUniqueState aborted({});
  aborted.Add("id.unique", "z");
  WriteInTransaction(producer->get(), uri, aborted, false);
  test::ProducePlain(broker, topic, {"not a number"});  // not Griffin's

  CallWatchdog watchdog([](const std::string& line) { ADD_FAILURE() << line; });
  std::vector<std::string> lines;
  UniqueStateReading reading{uri, 2, test::UniqueTopic("unique-io-reader"), {}, 20000, nullptr,
                             [&](const std::string& line) { lines.push_back(line); }};
  auto state = ReadUniqueState(reading, {}, watchdog);
  ASSERT_TRUE(state.ok()) << state.status().message();
  EXPECT_EQ((*state)->size(), 2);
  EXPECT_TRUE((*state)->Seen("id.unique", "a"));
  EXPECT_TRUE((*state)->Seen("id.unique", "b"));
  EXPECT_FALSE((*state)->Seen("id.unique", "z"));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("skipped 1 unique state records that are not Griffin's"), std::string::npos) << lines[0];

  // At most one key: one is forgotten at load and its tombstone written next.
  auto bounded = ReadUniqueState(reading, {1, 7LL * 24 * 3600 * 1000}, watchdog);
  ASSERT_TRUE(bounded.ok()) << bounded.status().message();
  EXPECT_EQ((*bounded)->size(), 1);
  ASSERT_EQ((*bounded)->tombstones().size(), 1u);
  EXPECT_EQ(WriteInTransaction(producer->get(), uri, **bounded, true), 1u);
  auto after = ReadUniqueState(reading, {}, watchdog);
  ASSERT_TRUE(after.ok()) << after.status().message();
  EXPECT_EQ((*after)->size(), 1);
}

TEST(UniqueStateIo, AStateTopicNotReadInTimeIsAnError) {
  bool skip = false;
  std::string broker = test::TestBroker(&skip);
  if (broker.empty()) {
    if (skip) GTEST_SKIP() << "GRIFFIN_NO_KAFKA=1";
    return;
  }
  const std::string topic = test::UniqueTopic("unique-io-missing");  // never created: no end to reach
  CallWatchdog watchdog([](const std::string& line) { ADD_FAILURE() << line; });
  UniqueStateReading reading{*ParseKafkaUri("kafka://" + broker + "/" + topic), 1,
                             test::UniqueTopic("unique-io-reader"), {}, 1500, nullptr, nullptr};
  auto state = ReadUniqueState(reading, {}, watchdog);
  ASSERT_FALSE(state.ok());
  EXPECT_NE(state.status().message().find("was not read to its end within 1.5 s"), std::string::npos)
      << state.status().message();
}

}  // namespace
}  // namespace griffin::kafka
