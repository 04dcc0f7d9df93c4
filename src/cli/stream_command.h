// `griffin stream`: validates a Kafka topic into a clean and a dead-letter
// topic, exactly once (src/connectors/kafka/stream_loop.h). Registers its
// options on a CLI11 app and runs; returns the process exit status (0 after a
// SIGTERM/SIGINT that committed the open batch, 2 bad options/rules/settings,
// 3 Kafka: a broker that does not answer, a missing topic, a fenced producer).
#pragma once

#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace griffin {

struct StreamArgs {
  std::string rules_path;
  std::string from, to, dead_letter;
  std::string group;
  std::string config_path;
  int64_t batch_records = 10000;
  int64_t batch_ms = 20;
  int threads = 1;
  std::string transactional_id;
  int startup_timeout_s = 15;
  int commit_timeout_s = 60;
  std::string metrics_listen;
  std::string store_uri;
  int window_s = 0;                 // 0: the rule file's stream.window, else 60 s
  std::string unique_state;        // kafka://HOST:PORT/TOPIC: `unique` across micro-batches
  int64_t unique_max_keys = 10'000'000;
  int64_t unique_retention_s = 7 * 24 * 3600;
};

CLI::App* AddStreamCommand(CLI::App& app, StreamArgs* args);
int RunStreamCommand(const StreamArgs& args);

}  // namespace griffin
