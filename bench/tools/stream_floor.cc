// The floor of bench/run_stream_bench.py: a transactional consume-produce loop in
// C++ on librdkafka that validates nothing. Each micro-batch (as griffin stream
// cuts them: up to --batch-records messages, --batch-ms after the first) is
// copied to --to, same partition, key and value, no headers, in one transaction
// with the input offsets; the client settings are griffin stream's. Its wall and
// CPU time are what any validator's loop costs before it checks anything, so
// (peer time) / (floor time) bounds griffin's ratio to the peer on the machine.
//
//   stream_floor --broker H:P --from RAW --to OUT --group G --count N
//                [--batch-records 10000] [--batch-ms 20] [-X key=value ...]
//
// Exits 0 once N messages are committed; any error is one line and exit 1
// (an abortable error too: a bench run is then void, not retried).
#include <librdkafka/rdkafka.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace {

[[noreturn]] void Die(const std::string& line) {
  std::fprintf(stderr, "stream_floor: %s\n", line.c_str());
  std::exit(1);
}

void CheckError(rd_kafka_error_t* error, const char* what) {
  if (error == nullptr) return;
  std::string line = std::string(what) + ": " + rd_kafka_error_string(error);
  rd_kafka_error_destroy(error);
  Die(line);
}

rd_kafka_t* NewClient(rd_kafka_type_t type, const std::vector<std::pair<std::string, std::string>>& settings) {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char reason[512];
  for (const auto& [key, value] : settings) {
    if (rd_kafka_conf_set(conf, key.c_str(), value.c_str(), reason, sizeof reason) != RD_KAFKA_CONF_OK) {
      Die(key + "=" + value + ": " + reason);
    }
  }
  rd_kafka_t* client = rd_kafka_new(type, conf, reason, sizeof reason);
  if (client == nullptr) Die(reason);
  return client;
}

struct Options {
  std::string broker, from, to, group;
  long count = 0, batch_records = 10000, batch_ms = 20;
  std::vector<std::pair<std::string, std::string>> extra;  // -X key=value, both clients
};

Options Parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (i + 1 >= argc) Die(flag + ": needs a value");
    std::string value = argv[++i];
    if (flag == "--broker") options.broker = value;
    else if (flag == "--from") options.from = value;
    else if (flag == "--to") options.to = value;
    else if (flag == "--group") options.group = value;
    else if (flag == "--count") options.count = std::atol(value.c_str());
    else if (flag == "--batch-records") options.batch_records = std::atol(value.c_str());
    else if (flag == "--batch-ms") options.batch_ms = std::atol(value.c_str());
    else if (flag == "-X" && value.find('=') != std::string::npos) {
      options.extra.emplace_back(value.substr(0, value.find('=')), value.substr(value.find('=') + 1));
    } else {
      Die("unknown argument " + flag);
    }
  }
  if (options.broker.empty() || options.from.empty() || options.to.empty() || options.group.empty() ||
      options.count <= 0) {
    Die("usage: stream_floor --broker H:P --from RAW --to OUT --group G --count N [-X key=value]");
  }
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = Parse(argc, argv);
  // griffin stream's own settings (src/connectors/kafka/stream_loop.cc, Open()).
  std::vector<std::pair<std::string, std::string>> consumer_settings = {
      {"bootstrap.servers", options.broker}, {"group.id", options.group},
      {"isolation.level", "read_committed"}, {"enable.auto.commit", "false"},
      {"enable.auto.offset.store", "false"}, {"auto.offset.reset", "earliest"},
      {"socket.nagle.disable", "true"}};
  std::vector<std::pair<std::string, std::string>> producer_settings = {
      {"bootstrap.servers", options.broker}, {"transactional.id", "stream-floor." + options.group},
      {"linger.ms", "5"}, {"socket.nagle.disable", "true"}};
  for (const auto& setting : options.extra) {
    consumer_settings.push_back(setting);
    producer_settings.push_back(setting);
  }
  rd_kafka_t* consumer = NewClient(RD_KAFKA_CONSUMER, consumer_settings);
  rd_kafka_poll_set_consumer(consumer);
  rd_kafka_t* producer = NewClient(RD_KAFKA_PRODUCER, producer_settings);
  CheckError(rd_kafka_init_transactions(producer, 60000), "init_transactions");
  // As griffin stream starts (Open() in stream_loop.cc): the output topic's
  // metadata on the producer, then the group's committed offsets (griffin keeps
  // its versions there), which finds the group's coordinator before the join.
  // Without these the floor's first commit came ~1 s later than griffin's.
  const rd_kafka_metadata_t* metadata = nullptr;
  rd_kafka_topic_t* topic = rd_kafka_topic_new(producer, options.to.c_str(), nullptr);
  if (rd_kafka_resp_err_t err = rd_kafka_metadata(producer, 0, topic, &metadata, 60000)) Die(rd_kafka_err2str(err));
  rd_kafka_topic_destroy(topic);
  rd_kafka_metadata_destroy(metadata);
  topic = rd_kafka_topic_new(consumer, options.from.c_str(), nullptr);
  if (rd_kafka_resp_err_t err = rd_kafka_metadata(consumer, 0, topic, &metadata, 60000)) Die(rd_kafka_err2str(err));
  rd_kafka_topic_destroy(topic);
  if (metadata->topic_cnt != 1 || metadata->topics[0].err) Die(options.from + ": no such topic");
  rd_kafka_topic_partition_list_t* partitions = rd_kafka_topic_partition_list_new(metadata->topics[0].partition_cnt);
  for (int p = 0; p < metadata->topics[0].partition_cnt; ++p) {
    rd_kafka_topic_partition_list_add(partitions, options.from.c_str(), p);
  }
  rd_kafka_metadata_destroy(metadata);
  if (rd_kafka_resp_err_t err = rd_kafka_committed(consumer, partitions, 60000)) Die(rd_kafka_err2str(err));
  rd_kafka_topic_partition_list_destroy(partitions);
  rd_kafka_topic_partition_list_t* subscription = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(subscription, options.from.c_str(), RD_KAFKA_PARTITION_UA);
  if (rd_kafka_resp_err_t err = rd_kafka_subscribe(consumer, subscription)) Die(rd_kafka_err2str(err));
  rd_kafka_topic_partition_list_destroy(subscription);

  using Clock = std::chrono::steady_clock;
  long committed = 0;
  std::vector<rd_kafka_message_t*> batch;
  while (committed < options.count) {
    Clock::time_point deadline{};
    while (static_cast<long>(batch.size()) < options.batch_records) {
      int timeout_ms = 100;
      if (!batch.empty()) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) break;
        timeout_ms = static_cast<int>(std::min<long>(left, 100));
      }
      rd_kafka_message_t* message = rd_kafka_consumer_poll(consumer, timeout_ms);
      if (message == nullptr) continue;
      if (message->err) {
        if (message->err != RD_KAFKA_RESP_ERR__PARTITION_EOF) {
          std::fprintf(stderr, "stream_floor: consumer: %s\n", rd_kafka_message_errstr(message));
        }
        rd_kafka_message_destroy(message);
        continue;
      }
      if (batch.empty()) deadline = Clock::now() + std::chrono::milliseconds(options.batch_ms);
      batch.push_back(message);
    }
    if (batch.empty()) continue;
    CheckError(rd_kafka_begin_transaction(producer), "begin_transaction");
    std::map<int32_t, int64_t> next_offsets;
    for (rd_kafka_message_t* message : batch) {
      while (true) {
        rd_kafka_resp_err_t err = rd_kafka_producev(
            producer, RD_KAFKA_V_TOPIC(options.to.c_str()), RD_KAFKA_V_PARTITION(message->partition),
            RD_KAFKA_V_KEY(message->key, message->key_len), RD_KAFKA_V_VALUE(message->payload, message->len),
            RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
        if (err == RD_KAFKA_RESP_ERR_NO_ERROR) break;
        if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL) Die(std::string("produce: ") + rd_kafka_err2str(err));
        rd_kafka_poll(producer, 50);
      }
      next_offsets[message->partition] = message->offset + 1;
    }
    rd_kafka_topic_partition_list_t* offsets =
        rd_kafka_topic_partition_list_new(static_cast<int>(next_offsets.size()));
    for (const auto& [partition, offset] : next_offsets) {
      rd_kafka_topic_partition_list_add(offsets, options.from.c_str(), partition)->offset = offset;
    }
    rd_kafka_consumer_group_metadata_t* group = rd_kafka_consumer_group_metadata(consumer);
    CheckError(rd_kafka_send_offsets_to_transaction(producer, offsets, group, 60000), "send_offsets_to_transaction");
    rd_kafka_consumer_group_metadata_destroy(group);
    rd_kafka_topic_partition_list_destroy(offsets);
    CheckError(rd_kafka_commit_transaction(producer, 60000), "commit_transaction");
    committed += static_cast<long>(batch.size());
    for (rd_kafka_message_t* message : batch) rd_kafka_message_destroy(message);
    batch.clear();
  }
  rd_kafka_consumer_close(consumer);
  rd_kafka_destroy(consumer);
  rd_kafka_destroy(producer);
  return 0;
}
