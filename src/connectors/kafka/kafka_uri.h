// kafka:// URIs, as `griffin stream` takes them:
//
//   kafka://HOST:PORT[,HOST:PORT...]/TOPIC[?key=value&...]
//
//   ASSIGN_OR_RETURN(KafkaUri uri, ParseKafkaUri("kafka://127.0.0.1:9092/raw?group=g"));
//   // uri.bootstrap == "127.0.0.1:9092", uri.topic == "raw", uri.params["group"] == "g"
//
// The host list becomes librdkafka's bootstrap.servers as written. A topic is
// 1-249 characters of [A-Za-z0-9._-] (Kafka's own rule). Anything else is a
// UsageError naming the URI.
#pragma once

#include <map>
#include <string>

#include "util/status.h"

namespace griffin::kafka {

struct KafkaUri {
  std::string bootstrap;
  std::string topic;
  std::map<std::string, std::string> params;
  std::string text;  // the URI as given, for messages
};

Result<KafkaUri> ParseKafkaUri(const std::string& uri);

}  // namespace griffin::kafka
