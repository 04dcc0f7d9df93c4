#include "connectors/kafka/kafka_uri.h"

namespace griffin::kafka {
namespace {

constexpr size_t kMaxTopicLength = 249;  // Kafka's limit

bool IsTopicChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '-';
}

}  // namespace

Result<KafkaUri> ParseKafkaUri(const std::string& uri) {
  const std::string scheme = "kafka://";
  auto bad = [&uri](const std::string& why) {
    return Status::UsageError(uri + ": " + why + " (expected kafka://HOST:PORT/TOPIC)");
  };
  if (uri.rfind(scheme, 0) != 0) return bad("not a kafka:// URI");
  std::string rest = uri.substr(scheme.size());
  std::string query;
  if (size_t question = rest.find('?'); question != std::string::npos) {
    query = rest.substr(question + 1);
    rest = rest.substr(0, question);
  }
  size_t slash = rest.find('/');
  if (slash == std::string::npos) return bad("no topic");
  KafkaUri result;
  result.text = uri;
  result.bootstrap = rest.substr(0, slash);
  result.topic = rest.substr(slash + 1);
  if (result.bootstrap.empty()) return bad("no host");
  for (size_t begin = 0; begin <= result.bootstrap.size();) {
    size_t comma = result.bootstrap.find(',', begin);
    if (comma == std::string::npos) comma = result.bootstrap.size();
    std::string host_port = result.bootstrap.substr(begin, comma - begin);
    size_t colon = host_port.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == host_port.size() ||
        host_port.find_first_not_of("0123456789", colon + 1) != std::string::npos) {
      return bad("host '" + host_port + "' has no port");
    }
    begin = comma + 1;
  }
  if (result.topic.empty()) return bad("no topic");
  if (result.topic.size() > kMaxTopicLength) return bad("topic longer than 249 characters");
  for (char c : result.topic) {
    if (!IsTopicChar(c)) return bad(std::string("topic has the character '") + c + "'");
  }
  for (size_t begin = 0; begin < query.size();) {
    size_t amp = query.find('&', begin);
    if (amp == std::string::npos) amp = query.size();
    std::string pair = query.substr(begin, amp - begin);
    size_t equals = pair.find('=');
    if (equals == std::string::npos || equals == 0) return bad("query part '" + pair + "' is not key=value");
    result.params[pair.substr(0, equals)] = pair.substr(equals + 1);
    begin = amp + 1;
  }
  return result;
}

}  // namespace griffin::kafka
