#include "connectors/kafka/stream_transaction.h"

#include <chrono>
#include <thread>

#include "connectors/kafka/kafka_client.h"

namespace griffin::kafka {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kRetryPauseMs = 100;  // between tries of a retriable transactional call

}  // namespace

StreamTransaction::StreamTransaction(Settings settings, CallWatchdog& watchdog)
    : settings_(std::move(settings)), watchdog_(watchdog) {}

void StreamTransaction::OnDelivery(rd_kafka_t*, const rd_kafka_message_t* message, void* opaque) {
  auto* state = static_cast<DeliveryState*>(opaque);
  if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR && state->first_error == RD_KAFKA_RESP_ERR_NO_ERROR) {
    state->first_error = message->err;
    state->first_error_topic = rd_kafka_topic_name(message->rkt);
  }
}

Status StreamTransaction::Begin() {
  RETURN_IF_ERROR(Call([&] { return rd_kafka_begin_transaction(producer_); }, "beginning a transaction"));
  delivery_ = DeliveryState{};
  return Status::OK();
}

Status StreamTransaction::Call(const std::function<rd_kafka_error_t*()>& call, const std::string& what) {
  if (aborted_) return Status::OK();
  bool requires_abort = false;
  RETURN_IF_ERROR(CallRetrying(call, what, &requires_abort));
  if (requires_abort) aborted_ = true;
  return Status::OK();
}

Status StreamTransaction::Commit() {
  if (aborted_) return Abort();
  bool requires_abort = false;
  RETURN_IF_ERROR(CallRetrying([&] { return rd_kafka_commit_transaction(producer_, kStepMs); },
                               "committing a transaction", &requires_abort));
  return requires_abort ? Abort() : Status::OK();
}

Status StreamTransaction::Abort() {
  aborted_ = true;
  bool requires_abort = false;
  RETURN_IF_ERROR(CallRetrying([&] { return rd_kafka_abort_transaction(producer_, kStepMs); },
                               "aborting a transaction", &requires_abort));
  if (requires_abort) return Status::InputError(settings_.output + ": aborting a transaction failed");
  return Status::OK();
}

// Runs `call`, again while its error is retriable for up to commit_timeout_ms.
// An abortable error sets *requires_abort and returns OK; other errors are fatal.
Status StreamTransaction::CallRetrying(const std::function<rd_kafka_error_t*()>& call, const std::string& what,
                                       bool* requires_abort) {
  const Clock::time_point give_up = Clock::now() + std::chrono::milliseconds(settings_.commit_timeout_ms);
  while (true) {
    KafkaError error;
    {
      CallWatchdog::Guard guard = watchdog_.Watch(what, kStepMs + kStuckGraceMs);
      error.reset(call());
    }
    if (!error) return Status::OK();
    if (rd_kafka_error_txn_requires_abort(error.get())) {
      *requires_abort = true;
      return Status::OK();
    }
    if (rd_kafka_error_is_fatal(error.get()) || !rd_kafka_error_is_retriable(error.get()) ||
        Clock::now() >= give_up) {
      return Fatal(what, error.get());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(kRetryPauseMs));
  }
}

Status StreamTransaction::Fatal(const std::string& what, const rd_kafka_error_t* error) {
  rd_kafka_resp_err_t code = rd_kafka_error_code(error);
  if (code == RD_KAFKA_RESP_ERR__FENCED || code == RD_KAFKA_RESP_ERR_PRODUCER_FENCED ||
      code == RD_KAFKA_RESP_ERR_INVALID_PRODUCER_EPOCH) {
    fenced_ = true;
    return Status::InputError(settings_.output + ": fenced: another griffin stream took over transactional id '" +
                              settings_.transactional_id + "' (the open transaction is aborted; nothing is lost)");
  }
  std::string detail = LastClientError();
  return Status::InputError(settings_.output + ": " + DescribeError(what, error) +
                            (detail.empty() ? "" : " (last client error: " + detail + ")") +
                            "; uncommitted records are not visible, a restart continues");
}

Status StreamTransaction::PermanentDeliveryError() const {
  switch (delivery_.first_error) {
    case RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE:
    case RD_KAFKA_RESP_ERR_RECORD_LIST_TOO_LARGE:
    case RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED:
    case RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART:
    case RD_KAFKA_RESP_ERR_INVALID_RECORD:
      return Status::InputError("kafka topic '" + delivery_.first_error_topic +
                                "' refused a record: " + rd_kafka_err2str(delivery_.first_error) +
                                " (the transaction is aborted; nothing is lost)");
    default:
      return Status::OK();
  }
}

}  // namespace griffin::kafka
