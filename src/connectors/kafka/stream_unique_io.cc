#include "connectors/kafka/stream_unique_io.h"

#include <chrono>
#include <optional>
#include <sstream>
#include <string_view>

namespace griffin::kafka {
namespace {

constexpr int kPollMs = 100;
constexpr int kQueueFullWaitMs = 50;  // producer queue full: serve deliveries, then retry
constexpr int kCloseMs = 30000;       // destroying the reader

std::string Seconds(int ms) {
  std::ostringstream out;
  out << ms / 1000.0;
  return out.str();
}

Status ProduceState(rd_kafka_t* producer, const KafkaUri& target, const std::string& key, const char* value,
                    size_t size) {
  while (true) {
    rd_kafka_resp_err_t err = rd_kafka_producev(
        producer, RD_KAFKA_V_TOPIC(target.topic.c_str()), RD_KAFKA_V_KEY(key.data(), key.size()),
        RD_KAFKA_V_VALUE(const_cast<char*>(value), size), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
    if (err == RD_KAFKA_RESP_ERR_NO_ERROR) return Status::OK();
    if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
      return Status::InputError(target.text + ": writing the unique state: " + rd_kafka_err2str(err));
    }
    rd_kafka_poll(producer, kQueueFullWaitMs);
  }
}

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Result<std::unique_ptr<StreamUniqueState>> ReadUniqueState(const UniqueStateReading& reading,
                                                           StreamUniqueState::Limits limits, CallWatchdog& watchdog) {
  using Clock = std::chrono::steady_clock;
  const KafkaUri& uri = reading.uri;
  ClientSettings settings = {{"bootstrap.servers", uri.bootstrap, ""},
                             {"group.id", reading.group_id, ""},
                             {"isolation.level", "read_committed", ""},
                             {"enable.auto.commit", "false", ""},
                             {"enable.partition.eof", "true", ""}};
  for (const ClientSetting& setting : reading.client_settings) settings.push_back(setting);
  ASSIGN_OR_RETURN(KafkaHandle reader, NewKafkaClient(KafkaRole::kConsumer, settings));
  PartitionList all(rd_kafka_topic_partition_list_new(reading.partitions));
  for (int p = 0; p < reading.partitions; ++p) {
    rd_kafka_topic_partition_list_add(all.get(), uri.topic.c_str(), p)->offset = RD_KAFKA_OFFSET_BEGINNING;
  }
  rd_kafka_resp_err_t err = rd_kafka_assign(reader.get(), all.get());
  if (err) return Status::InputError(uri.text + ": reading the unique state: " + rd_kafka_err2str(err));
  auto state = std::make_unique<StreamUniqueState>(limits);
  const Clock::time_point give_up = Clock::now() + std::chrono::milliseconds(reading.timeout_ms);
  int at_end = 0;
  int64_t skipped = 0;
  while (at_end < reading.partitions) {
    if (Clock::now() >= give_up) {
      return Status::InputError(uri.text + ": the unique state was not read to its end within " +
                                Seconds(reading.timeout_ms) + " s");
    }
    KafkaMessage message(rd_kafka_consumer_poll(reader.get(), kPollMs));
    if (!message) continue;
    if (message->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
      ++at_end;
      continue;
    }
    if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      if (reading.on_error) RETURN_IF_ERROR(reading.on_error(message->err, rd_kafka_message_errstr(message.get())));
      continue;
    }
    std::string_view key(static_cast<const char*>(message->key), message->key_len);
    std::optional<std::string_view> value;
    if (message->payload != nullptr) value.emplace(static_cast<const char*>(message->payload), message->len);
    if (!state->Load(key, value)) ++skipped;
  }
  state->FinishLoading(NowMs());
  {
    CallWatchdog::Guard guard = watchdog.Watch("closing the unique state reader", kCloseMs);
    rd_kafka_destroy_flags(reader.release(), RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
  }
  if (skipped > 0 && reading.log) {
    reading.log(uri.text + ": skipped " + std::to_string(skipped) + " unique state records that are not Griffin's");
  }
  return state;
}

Result<size_t> WriteUniqueState(rd_kafka_t* producer, const KafkaUri& uri, const StreamUniqueState& state,
                                int64_t now_ms) {
  const std::string seen = std::to_string(now_ms);
  for (const std::string& key : state.pending()) {
    RETURN_IF_ERROR(ProduceState(producer, uri, key, seen.data(), seen.size()));
  }
  const size_t tombstones = state.tombstones().size();
  for (size_t i = 0; i < tombstones; ++i) RETURN_IF_ERROR(ProduceState(producer, uri, state.tombstones()[i], nullptr, 0));
  return tombstones;
}

}  // namespace griffin::kafka
