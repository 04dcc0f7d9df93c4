// Helpers for the tests that need a real Kafka broker (src/connectors/kafka/*_test.cc).
//
// The broker is named by GRIFFIN_TEST_KAFKA (host:port). Those tests FAIL when it
// is unset, unless GRIFFIN_NO_KAFKA=1 says to skip them:
//   export GRIFFIN_TEST_KAFKA=$(scripts/kafka_test_cluster.sh start)
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "connectors/kafka/kafka_client.h"

namespace griffin::kafka::test {

// The test broker's address; empty (after recording a failure, or a skip with
// GRIFFIN_NO_KAFKA=1 via *skip) when there is none.
inline std::string TestBroker(bool* skip) {
  *skip = false;
  const char* address = std::getenv("GRIFFIN_TEST_KAFKA");
  if (address != nullptr && *address != '\0') return address;
  const char* no_kafka = std::getenv("GRIFFIN_NO_KAFKA");
  if (no_kafka != nullptr && std::string(no_kafka) == "1") {
    *skip = true;
  } else {
    ADD_FAILURE() << "GRIFFIN_TEST_KAFKA is not set, so the Kafka tests cannot run. Start a throwaway "
                     "broker with `export GRIFFIN_TEST_KAFKA=$(scripts/kafka_test_cluster.sh start)`, "
                     "or set GRIFFIN_NO_KAFKA=1 to skip them explicitly.";
  }
  return "";
}

// A topic name no other test (or earlier run against the same broker) uses.
inline std::string UniqueTopic(const std::string& prefix) {
  static std::atomic<int> counter{0};
  auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  return prefix + "-" + std::to_string(getpid()) + "-" + std::to_string(now) + "-" + std::to_string(counter++);
}

// Creates `topic` with `partitions` partitions (replication factor 1) and waits for it.
inline void CreateTopic(const std::string& broker, const std::string& topic, int partitions) {
  auto admin = NewKafkaClient(KafkaRole::kProducer, {{"bootstrap.servers", broker, ""}});
  ASSERT_TRUE(admin.ok()) << admin.status().message();
  char reason[512];
  rd_kafka_NewTopic_t* new_topic = rd_kafka_NewTopic_new(topic.c_str(), partitions, 1, reason, sizeof(reason));
  ASSERT_NE(new_topic, nullptr) << reason;
  rd_kafka_queue_t* queue = rd_kafka_queue_new(admin->get());
  rd_kafka_CreateTopics(admin->get(), &new_topic, 1, nullptr, queue);
  rd_kafka_event_t* event = rd_kafka_queue_poll(queue, 30000);
  ASSERT_NE(event, nullptr) << "CreateTopics timed out";
  const rd_kafka_CreateTopics_result_t* result = rd_kafka_event_CreateTopics_result(event);
  size_t count = 0;
  const rd_kafka_topic_result_t** topics = rd_kafka_CreateTopics_result_topics(result, &count);
  ASSERT_EQ(count, 1u);
  EXPECT_EQ(rd_kafka_topic_result_error(topics[0]), RD_KAFKA_RESP_ERR_NO_ERROR)
      << rd_kafka_topic_result_error_string(topics[0]);
  rd_kafka_event_destroy(event);
  rd_kafka_queue_destroy(queue);
  rd_kafka_NewTopic_destroy(new_topic);
}

// Produces `values` to partition 0 of `topic`, without a transaction, and waits for them.
inline void ProducePlain(const std::string& broker, const std::string& topic, const std::vector<std::string>& values) {
  auto producer = NewKafkaClient(KafkaRole::kProducer, {{"bootstrap.servers", broker, ""}});
  ASSERT_TRUE(producer.ok()) << producer.status().message();
  for (const std::string& value : values) {
    ASSERT_EQ(rd_kafka_producev(producer->get(), RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_PARTITION(0),
                                RD_KAFKA_V_VALUE(const_cast<char*>(value.data()), value.size()),
                                RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END),
              RD_KAFKA_RESP_ERR_NO_ERROR);
  }
  ASSERT_EQ(rd_kafka_flush(producer->get(), 30000), RD_KAFKA_RESP_ERR_NO_ERROR);
}

// Every value on `topic` (one partition), read from the start with the given
// isolation level until `expected` arrive or 20 s pass.
inline std::vector<std::string> ReadAll(const std::string& broker, const std::string& topic,
                                        const std::string& isolation, size_t expected) {
  std::vector<std::string> values;
  auto consumer = NewKafkaClient(KafkaRole::kConsumer, {{"bootstrap.servers", broker, ""},
                                                        {"group.id", UniqueTopic("reader"), ""},
                                                        {"isolation.level", isolation, ""},
                                                        {"auto.offset.reset", "earliest", ""},
                                                        {"enable.auto.commit", "false", ""}});
  if (!consumer.ok()) {
    ADD_FAILURE() << consumer.status().message();
    return values;
  }
  PartitionList assignment(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_list_add(assignment.get(), topic.c_str(), 0)->offset = RD_KAFKA_OFFSET_BEGINNING;
  rd_kafka_assign(consumer->get(), assignment.get());
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (values.size() < expected && std::chrono::steady_clock::now() < deadline) {
    KafkaMessage message(rd_kafka_consumer_poll(consumer->get(), 200));
    if (!message || message->err != RD_KAFKA_RESP_ERR_NO_ERROR) continue;
    values.emplace_back(static_cast<const char*>(message->payload), message->len);
  }
  rd_kafka_consumer_close(consumer->get());
  return values;
}

}  // namespace griffin::kafka::test
