// Owning handles over librdkafka's C API (Debian's librdkafka 2.0.2), and the
// client settings that build them. Used by `griffin stream` and its tests.
//
//   ClientSettings settings = {{"bootstrap.servers", "127.0.0.1:9092"}};
//   ASSIGN_OR_RETURN(KafkaHandle producer, NewKafkaClient(KafkaRole::kProducer, settings));
//
// Settings are applied in order, so a later one overrides an earlier one; an
// unknown key or a bad value is a UsageError naming the key (and its origin,
// e.g. "client.properties:3", when the setting carries one).
#pragma once

#include <librdkafka/rdkafka.h>

#include <memory>
#include <string>
#include <vector>

#include "util/status.h"

namespace griffin::kafka {

struct ClientSetting {
  std::string key, value;
  std::string origin;  // where it came from, for errors ("" for built-in settings)
};
using ClientSettings = std::vector<ClientSetting>;

struct HandleDeleter {
  void operator()(rd_kafka_t* handle) const { rd_kafka_destroy(handle); }
};
using KafkaHandle = std::unique_ptr<rd_kafka_t, HandleDeleter>;

struct PartitionListDeleter {
  void operator()(rd_kafka_topic_partition_list_t* list) const { rd_kafka_topic_partition_list_destroy(list); }
};
using PartitionList = std::unique_ptr<rd_kafka_topic_partition_list_t, PartitionListDeleter>;

struct KafkaErrorDeleter {
  void operator()(rd_kafka_error_t* error) const { rd_kafka_error_destroy(error); }
};
using KafkaError = std::unique_ptr<rd_kafka_error_t, KafkaErrorDeleter>;

struct MessageDeleter {
  void operator()(rd_kafka_message_t* message) const { rd_kafka_message_destroy(message); }
};
using KafkaMessage = std::unique_ptr<rd_kafka_message_t, MessageDeleter>;

enum class KafkaRole { kProducer, kConsumer };

// A client of `role` built from `settings`. A consumer's messages are all
// served by rd_kafka_consumer_poll (its main queue is redirected there).
// librdkafka's own log is dropped unless the settings set log_level or
// debug; its client errors (a broker that refuses
// connections, ...) are kept for LastClientError instead of printed.
// Optional callbacks, each called with `opaque`: `delivered` is a producer's
// delivery report (rd_kafka_conf_set_dr_msg_cb, from rd_kafka_poll/flush);
// `rebalance` a consumer's rebalance callback (rd_kafka_conf_set_rebalance_cb,
// from rd_kafka_consumer_poll), which must assign or unassign itself.
struct ClientHooks {
  void (*delivered)(rd_kafka_t*, const rd_kafka_message_t*, void* opaque) = nullptr;
  void (*rebalance)(rd_kafka_t*, rd_kafka_resp_err_t, rd_kafka_topic_partition_list_t*, void* opaque) = nullptr;
  void* opaque = nullptr;
};
Result<KafkaHandle> NewKafkaClient(KafkaRole role, const ClientSettings& settings, ClientHooks hooks = {});

// The latest error any client of this process reported ("" when none): for
// the one-line message of a failure that librdkafka only reports as a timeout.
std::string LastClientError();

// Reads librdkafka properties from a file: `key=value` lines, `#` comments and
// blank lines ignored, surrounding spaces trimmed. A line without `=` is a
// UsageError naming the file and line. Keys are checked when a client is built.
Result<ClientSettings> ReadClientSettingsFile(const std::string& path);

// "what: reason" from a librdkafka error object (which is not consumed).
std::string DescribeError(const std::string& what, const rd_kafka_error_t* error);

}  // namespace griffin::kafka
