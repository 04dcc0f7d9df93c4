// `griffin stream`'s engine: validates a Kafka topic into a clean topic and a
// dead-letter topic, exactly once, with Kafka transactions.
//
//   StreamOptions options = ...;                  // rules, topics, group, settings
//   std::atomic<bool> stop{false};                // set by SIGTERM
//   Result<StreamTotals> totals = RunStream(options, stop);
//
// The loop (consume, validate, produce): a micro-batch is cut when it holds
// `batch_records` messages, or `batch_ms` after its first message arrived,
// whichever comes first (or when a stop is requested). Its messages are judged
// (message_judge.h); in one transaction each is written to the clean or the
// dead-letter topic (stream_headers.h) and the consumer's next offsets (with
// the next version number in their metadata) are sent to the transaction;
// then it commits. An input partition's records go to the same partition
// number (modulo the output's partition count), so each output keeps the
// input's partition order.
//
// Failures: an abortable error aborts the transaction, rewinds the consumer to
// the committed offsets and goes on; a transaction that cannot commit within
// `commit_timeout_ms` (a broker down), a fenced producer (another validator
// with the same transactional id) or any fatal error returns an InputError:
// nothing uncommitted is visible to read_committed readers, so a restart
// continues without loss or duplicates. A stop request finishes the open
// batch, commits it and returns OK.
//
// Every blocking librdkafka call is bounded by its own timeout; one that
// outlives it by 5 s is stuck inside librdkafka (call_watchdog.h) and is
// reported through `on_stuck_call`.
//
// A changed rule file (rules_watcher.h) is compiled and takes over between
// transactions: each record's griffin-rules header names the version that
// judged it. A file that does not compile is logged and the rules in use stay.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "connectors/kafka/kafka_client.h"
#include "connectors/kafka/kafka_uri.h"
#include "connectors/kafka/stream_metrics.h"
#include "connectors/kafka/stream_unique_state.h"
#include "util/status.h"

namespace griffin::kafka {

struct StreamOptions {
  std::string rules_path;
  KafkaUri from, to, dead_letter;
  std::string group;
  ClientSettings client_settings;  // --config: applied after Griffin's own, so they win
  int64_t batch_records = 10000;
  int64_t batch_ms = 20;
  int threads = 1;                 // engine threads per micro-batch
  std::string transactional_id;    // empty: "griffin-stream." + group + "." + input topic
  int startup_timeout_ms = 15000;  // a broker answering and the topics' metadata, at start
  int commit_timeout_ms = 60000;   // one transaction's commit, retries included
  StreamMetrics* metrics = nullptr;  // optional: counts batches, aborts, lag
  // Optional: one line for a person (rules reloaded or refused), without a newline.
  std::function<void(const std::string&)> log;
  // Optional: called on a watchdog thread with one line when a librdkafka call
  // is stuck; it cannot be cancelled, so the CLI prints the line and exits 3.
  // Nothing is lost: the uncommitted batch is read again by the next run.
  std::function<void(const std::string&)> on_stuck_call;
  int64_t rules_check_ms = 1000;   // how often the rule file is looked at (between transactions)
  // Optional: record windows of committed batches as runs here (stream_window.h).
  // Windows are kept when there is a store or metrics (their score is one).
  std::string store_uri;
  // A window closes after window_ms (--window-s) when it is set, else as the
  // rule file's `stream.window:` says (records or a duration), else after 60 s.
  int64_t window_ms = 0;
  // Optional (text empty: none): `unique` spans micro-batches, its keys kept in
  // this compacted topic on the clean topic's cluster (stream_unique_state.h).
  KafkaUri unique_state;
  StreamUniqueState::Limits unique_limits;
};

struct StreamTotals {
  int64_t records_in = 0, clean = 0, dead_letter = 0;
  int64_t transactions = 0, aborted = 0;
  int64_t next_version = 1;
};

Result<StreamTotals> RunStream(const StreamOptions& options, const std::atomic<bool>& stop_requested);

}  // namespace griffin::kafka
