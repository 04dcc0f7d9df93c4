#include "connectors/kafka/kafka_client.h"

#include <fstream>
#include <mutex>

namespace griffin::kafka {
namespace {

struct ConfDeleter {
  void operator()(rd_kafka_conf_t* conf) const { rd_kafka_conf_destroy(conf); }
};

std::string Trim(const std::string& text) {
  size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  size_t end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

std::mutex last_error_mutex;
std::string last_error;

void KeepClientError(rd_kafka_t*, int, const char* reason, void*) {
  std::lock_guard<std::mutex> lock(last_error_mutex);
  last_error = reason;
}

// librdkafka prints warnings (a coordinator still loading, a broker refusing)
// that are retried and expected, and the errors a run reports itself in one
// line: quiet unless the settings ask for its log (log_level or debug).
void DropLog(const rd_kafka_t*, int, const char*, const char*) {}

bool AsksForLog(const ClientSettings& settings) {
  for (const ClientSetting& setting : settings) {
    if (setting.key == "log_level" || setting.key == "debug") return true;
  }
  return false;
}

}  // namespace

std::string LastClientError() {
  std::lock_guard<std::mutex> lock(last_error_mutex);
  return last_error;
}

Result<KafkaHandle> NewKafkaClient(KafkaRole role, const ClientSettings& settings, ClientHooks hooks) {
  std::unique_ptr<rd_kafka_conf_t, ConfDeleter> conf(rd_kafka_conf_new());
  char reason[512];
  rd_kafka_conf_set_error_cb(conf.get(), KeepClientError);
  if (hooks.delivered != nullptr) rd_kafka_conf_set_dr_msg_cb(conf.get(), hooks.delivered);
  if (hooks.rebalance != nullptr) rd_kafka_conf_set_rebalance_cb(conf.get(), hooks.rebalance);
  rd_kafka_conf_set_opaque(conf.get(), hooks.opaque);
  if (!AsksForLog(settings)) rd_kafka_conf_set_log_cb(conf.get(), DropLog);
  for (const ClientSetting& setting : settings) {
    if (rd_kafka_conf_set(conf.get(), setting.key.c_str(), setting.value.c_str(), reason, sizeof(reason)) !=
        RD_KAFKA_CONF_OK) {
      std::string where = setting.origin.empty() ? "" : setting.origin + ": ";
      return Status::UsageError(where + "Kafka client setting '" + setting.key + "': " + reason);
    }
  }
  rd_kafka_type_t type = role == KafkaRole::kProducer ? RD_KAFKA_PRODUCER : RD_KAFKA_CONSUMER;
  // rd_kafka_new takes ownership of conf only on success.
  rd_kafka_t* handle = rd_kafka_new(type, conf.get(), reason, sizeof(reason));
  if (handle == nullptr) return Status::UsageError(std::string("Kafka client: ") + reason);
  conf.release();
  if (role == KafkaRole::kConsumer) rd_kafka_poll_set_consumer(handle);
  return KafkaHandle(handle);
}

Result<ClientSettings> ReadClientSettingsFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::UsageError(path + ": cannot read the Kafka client settings file");
  ClientSettings settings;
  std::string line;
  for (int line_number = 1; std::getline(in, line); ++line_number) {
    std::string text = Trim(line);
    if (text.empty() || text[0] == '#') continue;
    size_t equals = text.find('=');
    std::string origin = path + ":" + std::to_string(line_number);
    if (equals == std::string::npos) {
      return Status::UsageError(origin + ": expected key=value, got '" + text + "'");
    }
    settings.push_back({Trim(text.substr(0, equals)), Trim(text.substr(equals + 1)), origin});
  }
  return settings;
}

std::string DescribeError(const std::string& what, const rd_kafka_error_t* error) {
  return what + ": " + rd_kafka_error_string(error);
}

}  // namespace griffin::kafka
