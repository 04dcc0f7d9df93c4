// StreamTransaction without a broker: how its calls' errors become lines. The
// broker-backed behaviour (commit, abort and rewind, fencing by a second
// stream, a broker gone mid-commit) is tested end to end by stream_loop_test
// and tests/python/test_stream.py on a real Kafka broker.
#include "connectors/kafka/stream_transaction.h"

#include <gtest/gtest.h>

#include "connectors/kafka/kafka_client.h"

namespace griffin::kafka {
namespace {

StreamTransaction::Settings Settings() { return {"kafka://127.0.0.1:1/clean", "griffin-stream.g.raw", 1000}; }

TEST(StreamTransaction, ACallThatSucceedsLeavesTheTransactionOpen) {
  CallWatchdog watchdog([](const std::string&) {});
  StreamTransaction transaction(Settings(), watchdog);
  int calls = 0;
  EXPECT_TRUE(transaction.Call([&]() -> rd_kafka_error_t* { ++calls; return nullptr; }, "a call").ok());
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(transaction.aborted());
  EXPECT_FALSE(transaction.fenced());
  EXPECT_TRUE(transaction.PermanentDeliveryError().ok());
}

TEST(StreamTransaction, FencingNamesTheTransactionalIdAndSaysNothingIsLost) {
  CallWatchdog watchdog([](const std::string&) {});
  StreamTransaction transaction(Settings(), watchdog);
  Status status = transaction.Call(
      [] { return rd_kafka_error_new(RD_KAFKA_RESP_ERR__FENCED, "fenced by a newer instance"); }, "committing");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kInputError);
  EXPECT_EQ(status.message(),
            "kafka://127.0.0.1:1/clean: fenced: another griffin stream took over transactional id "
            "'griffin-stream.g.raw' (the open transaction is aborted; nothing is lost)");
  EXPECT_TRUE(transaction.fenced());
}

TEST(StreamTransaction, AnErrorThatIsNotRetriableIsOneFatalLineAtOnce) {
  CallWatchdog watchdog([](const std::string&) {});
  StreamTransaction transaction(Settings(), watchdog);
  int calls = 0;
  Status status = transaction.Call(
      [&] {
        ++calls;
        return rd_kafka_error_new(RD_KAFKA_RESP_ERR__STATE, "no transaction open");
      },
      "sending the input offsets to the transaction");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(calls, 1);  // not retried
  const std::string& line = status.message();
  EXPECT_EQ(line.rfind("kafka://127.0.0.1:1/clean: ", 0), 0u) << line;
  EXPECT_NE(line.find("sending the input offsets to the transaction"), std::string::npos) << line;
  EXPECT_NE(line.find("a restart continues"), std::string::npos) << line;
  EXPECT_EQ(line.find('\n'), std::string::npos) << line;
  EXPECT_FALSE(transaction.fenced());
  EXPECT_FALSE(transaction.aborted());
}

TEST(StreamTransaction, AProducerWithoutATransactionalIdCannotBegin) {
  auto producer = NewKafkaClient(KafkaRole::kProducer, {{"bootstrap.servers", "127.0.0.1:1", ""}});
  ASSERT_TRUE(producer.ok()) << producer.status().message();
  CallWatchdog watchdog([](const std::string&) {});
  StreamTransaction transaction(Settings(), watchdog);
  transaction.SetProducer(producer->get());
  Status status = transaction.Begin();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("beginning a transaction"), std::string::npos) << status.message();
}

}  // namespace
}  // namespace griffin::kafka
