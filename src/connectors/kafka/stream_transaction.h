// The transactions of griffin stream's producer: one per micro-batch, holding
// its clean and dead-letter records and the input offsets, so a batch is
// written whole or not at all.
//
// Each transactional call is retried while librdkafka calls its error
// retriable (a broker restarting, a coordinator loading), for up to the
// commit timeout. An abortable error marks the transaction aborted (Commit
// then aborts it and the caller rewinds to the committed offsets); any other
// error is one fatal line that says nothing is lost. Every blocking call is
// watched (call_watchdog.h). Used from the stream's one thread.
#pragma once

#include <functional>
#include <string>

#include <librdkafka/rdkafka.h>

#include "connectors/kafka/call_watchdog.h"
#include "util/status.h"

namespace griffin::kafka {

class StreamTransaction {
 public:
  struct Settings {
    std::string output;            // the clean topic's URI text: errors start with it
    std::string transactional_id;  // named when another stream fences this one
    int commit_timeout_ms = 0;     // how long retriable errors are retried
  };

  StreamTransaction(Settings settings, CallWatchdog& watchdog);

  // The producer's delivery report callback, with delivery_opaque() as its
  // opaque: remembers the first record the open transaction failed to deliver.
  static void OnDelivery(rd_kafka_t* producer, const rd_kafka_message_t* message, void* opaque);
  void* delivery_opaque() { return &delivery_; }

  // The transactional producer (init_transactions done); it outlives this object's calls.
  void SetProducer(rd_kafka_t* producer) { producer_ = producer; }

  // Opens a transaction and forgets the last one's delivery failures.
  Status Begin();
  // A call inside the open transaction (a no-op once it is aborted); an
  // abortable error marks it aborted and returns OK, so the batch goes on to Commit.
  Status Call(const std::function<rd_kafka_error_t*()>& call, const std::string& what);
  // Commits, or aborts when the transaction is marked aborted (aborted() stays true).
  Status Commit();
  Status Abort();

  bool aborted() const { return aborted_; }
  void ClearAborted() { aborted_ = false; }
  // Another stream with the same transactional id took over (a fatal error said so).
  bool fenced() const { return fenced_; }

  // After an abort: the error when a record failed in a way no retry can fix
  // (too large, no such topic, not authorised, invalid); OK otherwise.
  Status PermanentDeliveryError() const;

  static constexpr int kStepMs = 10000;       // one call's own timeout
  static constexpr int kStuckGraceMs = 5000;  // past a call's own timeout: librdkafka is stuck

 private:
  struct DeliveryState {
    rd_kafka_resp_err_t first_error = RD_KAFKA_RESP_ERR_NO_ERROR;
    std::string first_error_topic;
  };

  Status CallRetrying(const std::function<rd_kafka_error_t*()>& call, const std::string& what, bool* requires_abort);
  Status Fatal(const std::string& what, const rd_kafka_error_t* error);

  Settings settings_;
  CallWatchdog& watchdog_;
  rd_kafka_t* producer_ = nullptr;
  DeliveryState delivery_;
  bool aborted_ = false, fenced_ = false;
};

}  // namespace griffin::kafka
