#include "cli/stream_command.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>

#include <CLI/CLI.hpp>

#include "cli/exit_codes.h"
#include "connectors/kafka/stream_loop.h"
#include "store/run_store.h"

namespace griffin {
namespace {

std::atomic<bool> stop_requested{false};

extern "C" void RequestStop(int) { stop_requested.store(true); }

}  // namespace

CLI::App* AddStreamCommand(CLI::App& app, StreamArgs* args) {
  CLI::App* cmd = app.add_subcommand(
      "stream", "Validate a Kafka topic into a clean and a dead-letter topic, exactly once (Kafka transactions)");
  cmd->add_option("-r,--rules", args->rules_path, "Rule file (YAML)")->required();
  cmd->add_option("--from", args->from, "Input: kafka://HOST:PORT/TOPIC")->required();
  cmd->add_option("--to", args->to, "Clean records: kafka://HOST:PORT/TOPIC")->required();
  cmd->add_option("--dead-letter", args->dead_letter, "Rejected records with their reasons: kafka://HOST:PORT/TOPIC")
      ->required();
  cmd->add_option("--group", args->group, "Consumer group (its committed offsets say where to continue)")->required();
  cmd->add_option("--config", args->config_path,
                  "librdkafka client settings, key=value lines (SASL, TLS, batching), for every client");
  cmd->add_option("--batch-records", args->batch_records, "Cut a micro-batch at this many messages")
      ->capture_default_str();
  cmd->add_option("--batch-ms", args->batch_ms, "... or this many ms after its first message")
      ->capture_default_str();
  cmd->add_option("--threads", args->threads, "Engine threads per micro-batch (0: all cores)")->capture_default_str();
  cmd->add_option("--transactional-id", args->transactional_id,
                  "Kafka transactional id (default griffin-stream.GROUP.TOPIC): one live validator per id");
  cmd->add_option("--startup-timeout", args->startup_timeout_s, "Seconds to reach the broker and topics at start")
      ->capture_default_str();
  cmd->add_option("--commit-timeout", args->commit_timeout_s,
                  "Seconds one transaction may take to commit (retries included) before exit 3")
      ->capture_default_str();
  cmd->add_option("--store", args->store_uri,
                  "Record each window of committed batches as a run: PATH.db or postgresql://... (griffin history)");
  cmd->add_option("--window-s", args->window_s,
                  "Seconds of batches per window (one run with --store; table checks over the window); "
                  "default: the rule file's stream.window, else 60");
  cmd->add_option("--unique-state", args->unique_state,
                  "unique checks span micro-batches; their keys are kept in this compacted topic "
                  "(kafka://HOST:PORT/TOPIC, the clean topic's cluster), written in each batch's transaction");
  cmd->add_option("--unique-max-keys", args->unique_max_keys, "Keys kept per stream (the oldest are forgotten)")
      ->capture_default_str();
  cmd->add_option("--unique-retention-s", args->unique_retention_s, "Seconds a key is kept after it was first seen")
      ->capture_default_str();
  cmd->add_option("--metrics-listen", args->metrics_listen,
                  "Serve Prometheus metrics on HOST:PORT (GET /metrics; port 0: a free one, printed on stderr)");
  cmd->footer(
      "\nExample:\n"
      "  griffin stream -r rules.yaml --from kafka://localhost:9092/raw --to kafka://localhost:9092/clean \\\n"
      "      --dead-letter kafka://localhost:9092/dlq --group griffin\n"
      "\nSIGTERM or SIGINT commits the open batch and exits 0. Semantics: docs/semantics.md (griffin stream).");
  return cmd;
}

int RunStreamCommand(const StreamArgs& args) {
  kafka::StreamOptions options;
  auto fail = [](const Status& status) {
    std::fprintf(stderr, "griffin: %s\n", status.message().c_str());
    return ExitCodeFor(status);
  };
  for (auto [text, uri] : {std::pair{&args.from, &options.from}, std::pair{&args.to, &options.to},
                           std::pair{&args.dead_letter, &options.dead_letter},
                           std::pair{&args.unique_state, &options.unique_state}}) {
    if (text->empty()) continue;  // --unique-state is optional
    Result<kafka::KafkaUri> parsed = kafka::ParseKafkaUri(*text);
    if (!parsed.ok()) return fail(parsed.status());
    *uri = std::move(parsed).value();
  }
  if (args.startup_timeout_s < 1 || args.commit_timeout_s < 1) {
    return fail(Status::UsageError("--startup-timeout and --commit-timeout: must be at least 1 second"));
  }
  if (args.window_s < 0) return fail(Status::UsageError("--window-s: must be at least 1 second"));
  if (args.unique_max_keys < 1 || args.unique_retention_s < 1) {
    return fail(Status::UsageError("--unique-max-keys and --unique-retention-s: must be at least 1"));
  }
  options.unique_limits = {args.unique_max_keys, args.unique_retention_s * 1000};
  if (!args.store_uri.empty()) {
    Status store_uri = CheckRunStoreUri(args.store_uri);
    if (!store_uri.ok()) return fail(store_uri);
  }
  if (args.threads < 0) return fail(Status::UsageError("--threads: must be 0 (all cores) or more"));
  if (!args.config_path.empty()) {
    Result<kafka::ClientSettings> settings = kafka::ReadClientSettingsFile(args.config_path);
    if (!settings.ok()) return fail(settings.status());
    options.client_settings = std::move(settings).value();
  }
  options.rules_path = args.rules_path;
  options.group = args.group;
  options.batch_records = args.batch_records;
  options.batch_ms = args.batch_ms;
  options.threads = args.threads;
  options.transactional_id = args.transactional_id;
  options.startup_timeout_ms = args.startup_timeout_s * 1000;
  options.commit_timeout_ms = args.commit_timeout_s * 1000;
  options.store_uri = args.store_uri;
  options.window_ms = int64_t{args.window_s} * 1000;

  kafka::StreamMetrics metrics;
  std::unique_ptr<kafka::MetricsServer> metrics_server;
  if (!args.metrics_listen.empty()) {
    Result<std::unique_ptr<kafka::MetricsServer>> started = kafka::MetricsServer::Start(args.metrics_listen, metrics);
    if (!started.ok()) return fail(started.status());
    metrics_server = std::move(started).value();
    options.metrics = &metrics;
    std::fprintf(stderr, "griffin: metrics on port %d (GET /metrics)\n", metrics_server->port());
  }
  options.log = [](const std::string& line) { std::fprintf(stderr, "griffin: stream: %s\n", line.c_str()); };
  // A call stuck inside librdkafka cannot be cancelled, nor its client closed: exit
  // at once (the open transaction is never committed; a restart reads it again).
  options.on_stuck_call = [](const std::string& line) {
    std::fprintf(stderr, "griffin: %s\n", line.c_str());
    std::fflush(stderr);
    std::_Exit(ExitCodeFor(Status::InputError(line)));
  };
  std::signal(SIGTERM, RequestStop);
  std::signal(SIGINT, RequestStop);
  Result<kafka::StreamTotals> totals = kafka::RunStream(options, stop_requested);
  if (!totals.ok()) return fail(totals.status());
  std::fprintf(stderr, "griffin: stream stopped: %lld records in, %lld clean, %lld dead-letter, %lld transactions\n",
               static_cast<long long>(totals->records_in), static_cast<long long>(totals->clean),
               static_cast<long long>(totals->dead_letter), static_cast<long long>(totals->transactions));
  return kExitPassed;
}

}  // namespace griffin
