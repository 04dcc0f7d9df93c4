// Pins what `griffin stream` relies on in Debian's librdkafka (2.0.2) against the
// test broker (Kafka 4.4.0, KRaft): transactions init, abort and commit; offsets
// sent to a transaction from a group consumer, with their metadata (the stream's
// version counter lives there); read_committed skipping aborted records. An
// upgrade of either side that breaks one of these fails here first.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "connectors/kafka/kafka_client.h"
#include "connectors/kafka/kafka_test_util.h"

namespace griffin::kafka {
namespace {

constexpr int kTimeoutMs = 30000;

void Produce(rd_kafka_t* producer, const std::string& topic, const std::string& value) {
  ASSERT_EQ(rd_kafka_producev(producer, RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_PARTITION(0),
                              RD_KAFKA_V_VALUE(const_cast<char*>(value.data()), value.size()),
                              RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END),
            RD_KAFKA_RESP_ERR_NO_ERROR);
}

void ExpectNoError(rd_kafka_error_t* raw, const std::string& what) {
  KafkaError error(raw);
  EXPECT_EQ(error, nullptr) << DescribeError(what, error.get());
}

TEST(LibrdkafkaTransactions, CommitAbortOffsetsAndReadCommitted) {
  bool skip = false;
  std::string broker = test::TestBroker(&skip);
  if (broker.empty()) {
    if (skip) GTEST_SKIP() << "GRIFFIN_NO_KAFKA=1";
    return;
  }
  std::string input = test::UniqueTopic("txn-in"), output = test::UniqueTopic("txn-out");
  std::string group = test::UniqueTopic("txn-group");
  test::CreateTopic(broker, input, 1);
  test::CreateTopic(broker, output, 1);
  test::ProducePlain(broker, input, {"a", "b", "c", "d"});

  auto consumer = NewKafkaClient(KafkaRole::kConsumer, {{"bootstrap.servers", broker, ""},
                                                        {"group.id", group, ""},
                                                        {"isolation.level", "read_committed", ""},
                                                        {"auto.offset.reset", "earliest", ""},
                                                        {"enable.auto.commit", "false", ""}});
  ASSERT_TRUE(consumer.ok()) << consumer.status().message();
  PartitionList subscription(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_list_add(subscription.get(), input.c_str(), RD_KAFKA_PARTITION_UA);
  ASSERT_EQ(rd_kafka_subscribe(consumer->get(), subscription.get()), RD_KAFKA_RESP_ERR_NO_ERROR);
  std::vector<std::string> consumed;
  int64_t next_offset = 0;
  for (int polls = 0; polls < 150 && consumed.size() < 4; ++polls) {
    KafkaMessage message(rd_kafka_consumer_poll(consumer->get(), 200));
    if (!message || message->err != RD_KAFKA_RESP_ERR_NO_ERROR) continue;
    consumed.emplace_back(static_cast<const char*>(message->payload), message->len);
    next_offset = message->offset + 1;
  }
  ASSERT_EQ(consumed, (std::vector<std::string>{"a", "b", "c", "d"}));

  auto producer = NewKafkaClient(KafkaRole::kProducer, {{"bootstrap.servers", broker, ""},
                                                        {"transactional.id", group + "-txn", ""}});
  ASSERT_TRUE(producer.ok()) << producer.status().message();
  ExpectNoError(rd_kafka_init_transactions(producer->get(), kTimeoutMs), "init_transactions");

  // An aborted transaction: its records never reach a read_committed reader.
  ExpectNoError(rd_kafka_begin_transaction(producer->get()), "begin_transaction");
  Produce(producer->get(), output, "aborted-1");
  Produce(producer->get(), output, "aborted-2");
  ASSERT_EQ(rd_kafka_flush(producer->get(), kTimeoutMs), RD_KAFKA_RESP_ERR_NO_ERROR);
  ExpectNoError(rd_kafka_abort_transaction(producer->get(), kTimeoutMs), "abort_transaction");

  // A committed one, with the consumer's offsets (and metadata) in it.
  ExpectNoError(rd_kafka_begin_transaction(producer->get()), "begin_transaction");
  for (const std::string& value : consumed) Produce(producer->get(), output, "clean-" + value);
  PartitionList offsets(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_t* entry = rd_kafka_topic_partition_list_add(offsets.get(), input.c_str(), 0);
  entry->offset = next_offset;
  std::string metadata = "{\"next_version\":42}";
  entry->metadata = strdup(metadata.c_str());  // freed with the list
  entry->metadata_size = metadata.size();
  rd_kafka_consumer_group_metadata_t* group_metadata = rd_kafka_consumer_group_metadata(consumer->get());
  ExpectNoError(rd_kafka_send_offsets_to_transaction(producer->get(), offsets.get(), group_metadata, kTimeoutMs),
                "send_offsets_to_transaction");
  rd_kafka_consumer_group_metadata_destroy(group_metadata);
  ExpectNoError(rd_kafka_commit_transaction(producer->get(), kTimeoutMs), "commit_transaction");

  EXPECT_EQ(test::ReadAll(broker, output, "read_committed", 4),
            (std::vector<std::string>{"clean-a", "clean-b", "clean-c", "clean-d"}));
  EXPECT_EQ(test::ReadAll(broker, output, "read_uncommitted", 6),
            (std::vector<std::string>{"aborted-1", "aborted-2", "clean-a", "clean-b", "clean-c", "clean-d"}));

  PartitionList committed(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_list_add(committed.get(), input.c_str(), 0);
  ASSERT_EQ(rd_kafka_committed(consumer->get(), committed.get(), kTimeoutMs), RD_KAFKA_RESP_ERR_NO_ERROR);
  EXPECT_EQ(committed->elems[0].offset, 4);
  ASSERT_NE(committed->elems[0].metadata, nullptr);
  EXPECT_EQ(std::string(static_cast<const char*>(committed->elems[0].metadata), committed->elems[0].metadata_size),
            metadata);
  rd_kafka_consumer_close(consumer->get());
}

}  // namespace
}  // namespace griffin::kafka
