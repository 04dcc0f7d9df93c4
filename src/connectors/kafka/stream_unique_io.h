// `griffin stream --unique-state`: the state topic read at start and written
// in each transaction (the state itself: stream_unique_state.h).
//
//   ASSIGN_OR_RETURN(auto state, ReadUniqueState(reading, limits, watchdog));       // after init_transactions
//   ... judge a batch with options.prior_unique = state.get(), produce its records ...
//   ASSIGN_OR_RETURN(size_t tombstones, WriteUniqueState(producer, uri, *state, now_ms));  // same transaction
//
// Reading: every partition from its start to its end with read_committed (the
// transactional id's init_transactions has aborted whatever a killed validator
// left open), through a consumer that is assigned, never joins a group, and is
// destroyed without leaving one. Records that are not Griffin's are skipped and
// counted. Writing: the batch's new keys (value: now_ms) and every pending
// tombstone, into the producer's open transaction; a full producer queue is
// waited out (deliveries served).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "connectors/kafka/call_watchdog.h"
#include "connectors/kafka/kafka_client.h"
#include "connectors/kafka/kafka_uri.h"
#include "connectors/kafka/stream_unique_state.h"
#include "util/status.h"

namespace griffin::kafka {

struct UniqueStateReading {
  KafkaUri uri;
  int partitions = 0;               // the state topic's partition count
  std::string group_id;             // the reader's group.id (assigned, never joined)
  ClientSettings client_settings;   // --config, applied after Griffin's own
  int timeout_ms = 15000;           // the whole read
  // A consumer error while reading: OK to go on (librdkafka retries), or the run's error.
  std::function<Status(rd_kafka_resp_err_t err, const std::string& reason)> on_error;
  std::function<void(const std::string&)> log;  // optional: the skipped records' line
};

Result<std::unique_ptr<StreamUniqueState>> ReadUniqueState(const UniqueStateReading& reading,
                                                           StreamUniqueState::Limits limits, CallWatchdog& watchdog);

// Returns how many tombstones were written.
Result<size_t> WriteUniqueState(rd_kafka_t* producer, const KafkaUri& uri, const StreamUniqueState& state,
                                int64_t now_ms);

}  // namespace griffin::kafka
