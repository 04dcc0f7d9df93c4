#include "connectors/kafka/stream_loop.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <sstream>
#include <thread>
#include <vector>

#include "api/validator.h"
#include "connectors/kafka/call_watchdog.h"
#include "connectors/kafka/message_judge.h"
#include "connectors/kafka/rules_watcher.h"
#include "connectors/kafka/stream_headers.h"
#include "connectors/kafka/stream_transaction.h"
#include "connectors/kafka/stream_unique_io.h"
#include "connectors/kafka/stream_windows.h"

namespace griffin::kafka {
namespace {

// librdkafka's reconnect backoff doubles up to reconnect.backoff.max.ms (10 s by
// default) while a broker is down, so after a broker restart a client could wait
// up to 10 s before it reconnects: longer than a short --commit-timeout, which
// then failed the first transaction after the outage (exit 3). 1 s is the Java
// client's default; --config can set another.
constexpr const char* kReconnectBackoffMaxMs = "1000";

using Clock = std::chrono::steady_clock;

constexpr int kPollMs = 100;               // idle consumer poll: how fast a stop is seen
constexpr int kQueueFullWaitMs = 50;       // producer queue full: serve deliveries, then retry
constexpr int kMaxConsecutiveAborts = 5;   // then the cause is not transient: fail with it
constexpr int kCloseMs = 30000;            // closing the clients (librdkafka's close has no timeout)

std::string Seconds(int ms) {
  std::ostringstream out;
  out << ms / 1000.0;
  return out.str();
}

// Partitions taken away while a micro-batch is collected: the batch is dropped
// and read again (by whoever owns each partition now) from the committed offsets.
struct RebalanceState {
  bool revoked = false;
};

void OnRebalance(rd_kafka_t* consumer, rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t* partitions,
                 void* opaque) {
  const bool cooperative = std::string(rd_kafka_rebalance_protocol(consumer)) == "COOPERATIVE";
  if (err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS) {
    if (cooperative) {
      KafkaError(rd_kafka_incremental_assign(consumer, partitions));
    } else {
      rd_kafka_assign(consumer, partitions);
    }
    return;
  }
  static_cast<RebalanceState*>(opaque)->revoked = true;
  if (cooperative) {
    KafkaError(rd_kafka_incremental_unassign(consumer, partitions));
  } else {
    rd_kafka_assign(consumer, nullptr);
  }
}

class StreamRunner {
 public:
  StreamRunner(const StreamOptions& options, const std::atomic<bool>& stop)
      : options_(options), stop_(stop), watchdog_([this](const std::string& line) { ReportStuck(line); }) {}

  // A run that failed leaves its group without waiting for the coordinator
  // (librdkafka's close can wait forever for a broker that is gone), except
  // when it was fenced: the broker is up, and closing hands the partitions to
  // the validator that took over at once instead of after the session timeout.
  ~StreamRunner() {
    CallWatchdog::Guard guard = watchdog_.Watch("closing the Kafka clients", kCloseMs);
    if (consumer_ && !consumer_closed_) {
      if (transaction_ && transaction_->fenced()) {
        rd_kafka_consumer_close(consumer_.get());
      } else {
        rd_kafka_destroy_flags(consumer_.release(), RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
      }
    }
    consumer_.reset();
    producer_.reset();
  }

  Result<StreamTotals> Run() {
    Status ran = Loop();
    if (!ran.ok()) {
      watchdog_.SetNote("after: " + ran.message());  // the clients close next, in the destructor
      return ran;
    }
    if (windows_) windows_->Close(validator_->rules());
    {
      CallWatchdog::Guard guard = watchdog_.Watch("leaving the consumer group", kCloseMs);
      rd_kafka_consumer_close(consumer_.get());
    }
    consumer_closed_ = true;
    totals_.next_version = next_version_;
    return totals_;
  }

 private:
  Status Loop() {
    RETURN_IF_ERROR(Open());
    while (!stop_.load()) {
      std::vector<KafkaMessage> batch;
      RETURN_IF_ERROR(Collect(&batch));
      if (batch.empty()) {  // idle: a window whose time is up closes now
        if (windows_ && windows_->IsDue(validator_->rules())) windows_->Close(validator_->rules());
        continue;
      }
      RETURN_IF_ERROR(Process(batch));
    }
    return Status::OK();
  }

  // Called on the watchdog's thread: a librdkafka call is stuck (call_watchdog.h).
  void ReportStuck(const std::string& line) {
    if (!options_.on_stuck_call) return;
    options_.on_stuck_call(options_.to.text + ": " + line +
                           ": librdkafka is stuck (is the broker gone?); uncommitted records are not visible, "
                           "a restart continues");
  }

  // Watches one blocking librdkafka call that has its own timeout.
  CallWatchdog::Guard Watch(const std::string& what, int timeout_ms) {
    return watchdog_.Watch(what, timeout_ms + StreamTransaction::kStuckGraceMs);
  }

  Status Open() {
    ASSIGN_OR_RETURN(validator_, Validator::FromFile(options_.rules_path));
    rules_sha256_ = validator_->rules().sha256;
    rules_watcher_ = std::make_unique<RulesWatcher>(options_.rules_path, rules_sha256_);
    ASSIGN_OR_RETURN(windows_, StreamWindows::Open({options_.from.text, options_.window_ms, options_.metrics, options_.log},
                                                   options_.store_uri));
    rules_checked_ = Clock::now();
    transactional_id_ = options_.transactional_id.empty()
                            ? "griffin-stream." + options_.group + "." + options_.from.topic
                            : options_.transactional_id;

    ClientSettings consumer_settings = {{"bootstrap.servers", options_.from.bootstrap, ""},
                                        {"group.id", options_.group, ""},
                                        {"isolation.level", "read_committed", ""},
                                        {"enable.auto.commit", "false", ""},
                                        {"enable.auto.offset.store", "false", ""},
                                        {"auto.offset.reset", "earliest", ""},
                                        {"socket.nagle.disable", "true", ""},
                                        {"reconnect.backoff.max.ms", kReconnectBackoffMaxMs, ""}};
    ClientSettings producer_settings = {{"bootstrap.servers", options_.to.bootstrap, ""},
                                        {"transactional.id", transactional_id_, ""},
                                        {"transaction.timeout.ms", std::to_string(options_.commit_timeout_ms), ""},
                                        {"linger.ms", "5", ""},
                                        // A transaction is several small requests in a row (bench/README.md, "Streaming").
                                        {"socket.nagle.disable", "true", ""},
                                        // The broker's and the topic's limits decide a record's size.
                                        {"message.max.bytes", "268435456", ""},
                                        {"reconnect.backoff.max.ms", kReconnectBackoffMaxMs, ""}};
    for (const KafkaUri* uri : {&options_.dead_letter, &options_.unique_state}) {
      if (!uri->text.empty() && uri->bootstrap != options_.to.bootstrap) {
        return Status::UsageError(uri->text + ": must be on the clean topic's cluster (" + options_.to.bootstrap +
                                  "): one transaction writes the clean, dead-letter and state topics");
      }
    }
    for (const ClientSetting& setting : options_.client_settings) {
      consumer_settings.push_back(setting);
      producer_settings.push_back(setting);
    }
    ASSIGN_OR_RETURN(consumer_, NewKafkaClient(KafkaRole::kConsumer, consumer_settings,
                                               {nullptr, OnRebalance, &rebalance_}));
    transaction_ = std::make_unique<StreamTransaction>(
        StreamTransaction::Settings{options_.to.text, transactional_id_, options_.commit_timeout_ms}, watchdog_);
    ASSIGN_OR_RETURN(producer_, NewKafkaClient(KafkaRole::kProducer, producer_settings,
                                               {StreamTransaction::OnDelivery, nullptr,
                                                transaction_->delivery_opaque()}));
    transaction_->SetProducer(producer_.get());

    ASSIGN_OR_RETURN(input_partitions_, PartitionCount(consumer_.get(), options_.from));
    ASSIGN_OR_RETURN(clean_partitions_, PartitionCount(producer_.get(), options_.to));
    ASSIGN_OR_RETURN(dead_letter_partitions_, PartitionCount(producer_.get(), options_.dead_letter));

    KafkaError error;
    {
      CallWatchdog::Guard guard = Watch("starting transactions", options_.startup_timeout_ms);
      error.reset(rd_kafka_init_transactions(producer_.get(), options_.startup_timeout_ms));
    }
    if (error) return Status::InputError(DescribeError(options_.to.text + ": starting transactions", error.get()));
    RETURN_IF_ERROR(RecoverNextVersion());
    if (!options_.unique_state.text.empty()) RETURN_IF_ERROR(LoadUniqueState());

    PartitionList subscription(rd_kafka_topic_partition_list_new(1));
    rd_kafka_topic_partition_list_add(subscription.get(), options_.from.topic.c_str(), RD_KAFKA_PARTITION_UA);
    rd_kafka_resp_err_t err = rd_kafka_subscribe(consumer_.get(), subscription.get());
    if (err) return Status::InputError(options_.from.text + ": subscribing: " + rd_kafka_err2str(err));
    return Status::OK();
  }

  // The topic's partition count, which also proves a broker answers and the topic exists.
  Result<int> PartitionCount(rd_kafka_t* client, const KafkaUri& uri) {
    rd_kafka_topic_t* topic = rd_kafka_topic_new(client, uri.topic.c_str(), nullptr);
    const rd_kafka_metadata_t* metadata = nullptr;
    rd_kafka_resp_err_t err;
    {
      CallWatchdog::Guard guard = Watch("reading the metadata of " + uri.text, options_.startup_timeout_ms);
      err = rd_kafka_metadata(client, 0, topic, &metadata, options_.startup_timeout_ms);
    }
    rd_kafka_topic_destroy(topic);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      std::string detail = LastClientError();
      return Status::InputError(uri.text + ": no Kafka broker answered within " +
                                Seconds(options_.startup_timeout_ms) + " s (" +
                                (detail.empty() ? rd_kafka_err2str(err) : detail) + ")");
    }
    int count = 0;
    rd_kafka_resp_err_t topic_err = RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART;
    for (int t = 0; t < metadata->topic_cnt; ++t) {
      if (uri.topic == metadata->topics[t].topic) {
        topic_err = metadata->topics[t].err;
        count = metadata->topics[t].partition_cnt;
      }
    }
    rd_kafka_metadata_destroy(metadata);
    if (topic_err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART || (topic_err == 0 && count == 0)) {
      return Status::InputError(uri.text + ": topic '" + uri.topic + "' does not exist");
    }
    if (topic_err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return Status::InputError(uri.text + ": topic '" + uri.topic + "': " + rd_kafka_err2str(topic_err));
    }
    return count;
  }

  // The next version: the largest one committed with the group's offsets on
  // any input partition (1 for a new group).
  Status RecoverNextVersion() {
    PartitionList partitions(rd_kafka_topic_partition_list_new(input_partitions_));
    for (int p = 0; p < input_partitions_; ++p) {
      rd_kafka_topic_partition_list_add(partitions.get(), options_.from.topic.c_str(), p);
    }
    rd_kafka_resp_err_t err;
    {
      CallWatchdog::Guard guard = Watch("reading the group's committed offsets", options_.startup_timeout_ms);
      err = rd_kafka_committed(consumer_.get(), partitions.get(), options_.startup_timeout_ms);
    }
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return Status::InputError(options_.from.text + ": reading group '" + options_.group +
                                "' committed offsets: " + rd_kafka_err2str(err));
    }
    next_version_ = 1;
    for (int i = 0; i < partitions->cnt; ++i) {
      const rd_kafka_topic_partition_t& entry = partitions->elems[i];
      if (entry.metadata == nullptr) continue;
      std::string_view metadata(static_cast<const char*>(entry.metadata), entry.metadata_size);
      if (auto version = ParseVersionMetadata(metadata); version && *version > next_version_) next_version_ = *version;
    }
    return Status::OK();
  }

  // Reads the state topic (read_committed, after init_transactions aborted
  // any transaction a previous validator left open) into unique_state_.
  Status LoadUniqueState() {
    const KafkaUri& uri = options_.unique_state;
    ASSIGN_OR_RETURN(int partitions, PartitionCount(producer_.get(), uri));
    UniqueStateReading reading{uri, partitions, transactional_id_ + ".unique-state", options_.client_settings,
                               options_.startup_timeout_ms,
                               [this](rd_kafka_resp_err_t err, const std::string& reason) {
                                 return ConsumerError(err, reason);
                               },
                               options_.log};
    ASSIGN_OR_RETURN(unique_state_, ReadUniqueState(reading, options_.unique_limits, watchdog_));
    return Status::OK();
  }

  static int64_t NowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  }

  // Fills `batch` with up to batch_records messages, cut batch_ms after the
  // first, or where a window of N records ends.
  Status Collect(std::vector<KafkaMessage>* batch) {
    Clock::time_point deadline{};
    int64_t limit = options_.batch_records;
    if (windows_) limit = windows_->CutBatch(limit, validator_->rules());
    while (static_cast<int64_t>(batch->size()) < limit) {
      if (stop_.load()) break;
      int timeout_ms = kPollMs;
      if (!batch->empty()) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) break;
        timeout_ms = static_cast<int>(std::min<int64_t>(left, kPollMs));
      }
      KafkaMessage message(rd_kafka_consumer_poll(consumer_.get(), timeout_ms));
      if (rebalance_.revoked) {
        rebalance_.revoked = false;
        batch->clear();
        RETURN_IF_ERROR(Rewind());
        continue;  // this message too: the rewind reads it again
      }
      if (!message) {
        if (batch->empty()) {  // idle: let the caller see a stop
          UpdateLag();
          return Status::OK();
        }
        continue;
      }
      if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
        RETURN_IF_ERROR(ConsumerError(message->err, rd_kafka_message_errstr(message.get())));
        continue;
      }
      if (batch->empty()) {
        batch_started_ = Clock::now();
        deadline = batch_started_ + std::chrono::milliseconds(options_.batch_ms);
      }
      batch->push_back(std::move(message));
    }
    return Status::OK();
  }

  Status ConsumerError(rd_kafka_resp_err_t err, const std::string& reason) {
    switch (err) {
      case RD_KAFKA_RESP_ERR__PARTITION_EOF:
        return Status::OK();
      case RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART:
      case RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC:
      case RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION:
        return Status::InputError(options_.from.text + ": topic '" + options_.from.topic + "' is gone: " + reason);
      case RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED:
      case RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED:
        return Status::InputError(options_.from.text + ": " + reason);
      default:
        return Status::OK();  // transient (a broker restarting): librdkafka retries
    }
  }

  // Between transactions: a changed rule file takes over, or is refused (logged).
  void ReloadRules() {
    if (Clock::now() - rules_checked_ < std::chrono::milliseconds(options_.rules_check_ms)) return;
    rules_checked_ = Clock::now();
    std::optional<RulesWatcher::Change> change = rules_watcher_->Poll();
    if (!change) return;
    if (!change->validator) {
      if (options_.log) options_.log("refused " + options_.rules_path + ", keeping the rules in use: " + change->error);
      return;
    }
    if (windows_) windows_->Close(validator_->rules());  // a window holds one rule version
    validator_ = change->validator;
    rules_sha256_ = validator_->rules().sha256;
    if (options_.log) options_.log("loaded " + options_.rules_path + " (rules sha256 " + rules_sha256_ + ")");
  }

  Status Process(const std::vector<KafkaMessage>& batch) {
    ReloadRules();
    std::vector<std::string_view> values;
    values.reserve(batch.size());
    for (const KafkaMessage& message : batch) {
      values.emplace_back(static_cast<const char*>(message->payload), message->len);
    }
    ValidationOptions validation;
    validation.threads = options_.threads;
    validation.prior_unique = unique_state_.get();
    if (windows_) {
      validation.row_offset = windows_->next_row();
      validation.partial_state = &batch_state_;
    }
    ASSIGN_OR_RETURN(JudgedBatch judged, JudgeMessages(*validator_, values, validation, &batch_text_));

    const int64_t first_version = next_version_;
    RETURN_IF_ERROR(transaction_->Begin());
    int64_t clean = 0;
    std::map<int32_t, int64_t> next_offsets;  // input partition -> offset after its last record
    std::map<int32_t, std::pair<int64_t, int64_t>> ranges;  // input partition -> [first, last + 1)
    for (size_t i = 0; i < batch.size(); ++i) {
      const rd_kafka_message_t& message = *batch[i];
      const MessageVerdict& verdict = judged.verdicts[i];
      const bool is_clean = verdict.errors.empty();
      rd_kafka_headers_t* headers = nullptr;
      rd_kafka_headers_t* original = nullptr;
      if (rd_kafka_message_headers(&message, &original) == RD_KAFKA_RESP_ERR_NO_ERROR) {
        headers = rd_kafka_headers_copy(original);
      } else {
        headers = rd_kafka_headers_new(3);
      }
      if (is_clean) {
        std::string version = std::to_string(next_version_ + clean);
        rd_kafka_header_add(headers, kVersionHeader, -1, version.data(), version.size());
        ++clean;
      } else {
        std::string errors = ErrorsHeader(verdict.errors);
        std::string source = SourceHeader(options_.from.topic, message.partition, message.offset);
        rd_kafka_header_add(headers, kErrorsHeader, -1, errors.data(), errors.size());
        rd_kafka_header_add(headers, kSourceHeader, -1, source.data(), source.size());
      }
      rd_kafka_header_add(headers, kRulesHeader, -1, rules_sha256_.data(), rules_sha256_.size());
      const KafkaUri& target = is_clean ? options_.to : options_.dead_letter;
      const int partitions = is_clean ? clean_partitions_ : dead_letter_partitions_;
      RETURN_IF_ERROR(Produce(target, message.partition % partitions, message, headers));
      next_offsets[message.partition] = message.offset + 1;
      ranges.emplace(message.partition, std::pair<int64_t, int64_t>{message.offset, 0}).first->second.second =
          message.offset + 1;
    }
    size_t tombstones_written = 0;
    if (unique_state_ && !transaction_->aborted()) {
      ASSIGN_OR_RETURN(tombstones_written, WriteUniqueState(producer_.get(), options_.unique_state, *unique_state_, NowMs()));
    }
    RETURN_IF_ERROR(SendOffsets(next_offsets, next_version_ + clean));
    RETURN_IF_ERROR(transaction_->Commit());
    if (transaction_->aborted()) {  // the batch is read again from the committed offsets
      transaction_->ClearAborted();
      next_version_ = first_version;
      if (unique_state_) unique_state_->Abort();
      ++totals_.aborted;
      if (options_.metrics != nullptr) options_.metrics->CountAbort();
      RETURN_IF_ERROR(transaction_->PermanentDeliveryError());
      if (++consecutive_aborts_ > kMaxConsecutiveAborts) {
        std::string detail = LastClientError();
        return Status::InputError(options_.to.text + ": " + std::to_string(kMaxConsecutiveAborts) +
                                  " transactions in a row aborted" + (detail.empty() ? "" : " (" + detail + ")") +
                                  "; uncommitted records are not visible, a restart continues");
      }
      return Rewind();
    }
    consecutive_aborts_ = 0;
    next_version_ += clean;
    if (unique_state_) unique_state_->Commit(NowMs(), tombstones_written);
    totals_.records_in += static_cast<int64_t>(batch.size());
    totals_.clean += clean;
    totals_.dead_letter += static_cast<int64_t>(batch.size()) - clean;
    ++totals_.transactions;
    if (windows_) windows_->Add(*validator_, judged.report, batch_state_, ranges, static_cast<int64_t>(batch.size()));
    if (options_.metrics != nullptr) {
      const double seconds = std::chrono::duration<double>(Clock::now() - batch_started_).count();
      options_.metrics->CountBatch(clean, static_cast<int64_t>(batch.size()) - clean, seconds,
                                   judged.report.quality_score);
      UpdateLag();
    }
    return Status::OK();
  }

  // Messages between the consumer's positions and the high watermarks it last
  // saw (librdkafka's cached values: no broker round trip).
  void UpdateLag() {
    if (options_.metrics == nullptr) return;
    rd_kafka_topic_partition_list_t* raw = nullptr;
    if (rd_kafka_assignment(consumer_.get(), &raw) != RD_KAFKA_RESP_ERR_NO_ERROR) return;
    PartitionList assignment(raw);
    if (rd_kafka_position(consumer_.get(), assignment.get()) != RD_KAFKA_RESP_ERR_NO_ERROR) return;
    int64_t lag = 0;
    for (int i = 0; i < assignment->cnt; ++i) {
      const rd_kafka_topic_partition_t& entry = assignment->elems[i];
      int64_t low = 0, high = 0;
      if (entry.offset < 0 ||
          rd_kafka_get_watermark_offsets(consumer_.get(), entry.topic, entry.partition, &low, &high) !=
              RD_KAFKA_RESP_ERR_NO_ERROR ||
          high < entry.offset) {
        continue;
      }
      lag += high - entry.offset;
    }
    options_.metrics->SetLag(lag);
  }

  // Produces one record; waits (serving deliveries) while the producer's queue is full.
  Status Produce(const KafkaUri& target, int32_t partition, const rd_kafka_message_t& source,
                 rd_kafka_headers_t* headers) {
    while (true) {
      rd_kafka_resp_err_t err = rd_kafka_producev(
          producer_.get(), RD_KAFKA_V_TOPIC(target.topic.c_str()), RD_KAFKA_V_PARTITION(partition),
          RD_KAFKA_V_KEY(source.key, source.key_len), RD_KAFKA_V_VALUE(source.payload, source.len),
          RD_KAFKA_V_HEADERS(headers), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
      if (err == RD_KAFKA_RESP_ERR_NO_ERROR) return Status::OK();  // the headers are the producer's now
      if (err == RD_KAFKA_RESP_ERR__QUEUE_FULL) {
        rd_kafka_poll(producer_.get(), kQueueFullWaitMs);
        continue;
      }
      rd_kafka_headers_destroy(headers);
      return Status::InputError(target.text + ": writing the record from " +
                                SourceHeader(options_.from.topic, source.partition, source.offset) + " (" +
                                std::to_string(source.len) + " bytes): " + rd_kafka_err2str(err));
    }
  }

  Status SendOffsets(const std::map<int32_t, int64_t>& next_offsets, int64_t next_version) {
    PartitionList offsets(rd_kafka_topic_partition_list_new(static_cast<int>(next_offsets.size())));
    std::string metadata = VersionMetadata(next_version);
    for (const auto& [partition, offset] : next_offsets) {
      rd_kafka_topic_partition_t* entry =
          rd_kafka_topic_partition_list_add(offsets.get(), options_.from.topic.c_str(), partition);
      entry->offset = offset;
      entry->metadata = strdup(metadata.c_str());  // freed with the list
      entry->metadata_size = metadata.size();
    }
    rd_kafka_consumer_group_metadata_t* group = rd_kafka_consumer_group_metadata(consumer_.get());
    Status sent = transaction_->Call(
        [&] {
          return rd_kafka_send_offsets_to_transaction(producer_.get(), offsets.get(), group,
                                                      StreamTransaction::kStepMs);
        },
        "sending the input offsets to the transaction");
    rd_kafka_consumer_group_metadata_destroy(group);
    return sent;
  }

  // After an abort: every assigned partition back to its committed offset.
  Status Rewind() {
    rd_kafka_topic_partition_list_t* raw = nullptr;
    rd_kafka_resp_err_t err = rd_kafka_assignment(consumer_.get(), &raw);
    PartitionList assignment(raw);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return Status::InputError(options_.from.text + ": reading the assignment: " + rd_kafka_err2str(err));
    }
    if (assignment->cnt == 0) return Status::OK();
    {
      CallWatchdog::Guard guard = Watch("reading the group's committed offsets", options_.commit_timeout_ms);
      err = rd_kafka_committed(consumer_.get(), assignment.get(), options_.commit_timeout_ms);
    }
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return Status::InputError(options_.from.text + ": reading committed offsets: " + rd_kafka_err2str(err));
    }
    for (int i = 0; i < assignment->cnt; ++i) {
      if (assignment->elems[i].offset < 0) assignment->elems[i].offset = RD_KAFKA_OFFSET_BEGINNING;
    }
    KafkaError error;
    {
      CallWatchdog::Guard guard = Watch("rewinding to the committed offsets", options_.commit_timeout_ms);
      error.reset(rd_kafka_seek_partitions(consumer_.get(), assignment.get(), options_.commit_timeout_ms));
    }
    if (error) return Status::InputError(DescribeError(options_.from.text + ": rewinding", error.get()));
    return Status::OK();
  }

  const StreamOptions& options_;
  const std::atomic<bool>& stop_;
  CallWatchdog watchdog_;  // before the handles: it outlives their closing
  std::shared_ptr<const Validator> validator_;
  std::string rules_sha256_, transactional_id_;
  RebalanceState rebalance_;
  std::unique_ptr<StreamTransaction> transaction_;  // from Open(), before the producer it serves
  KafkaHandle consumer_, producer_;
  int input_partitions_ = 0, clean_partitions_ = 0, dead_letter_partitions_ = 0;
  int64_t next_version_ = 1;
  Clock::time_point batch_started_{};
  std::string batch_text_;  // JudgeMessages' buffer, reused by every batch
  std::string batch_state_;  // the batch's partial state, for its window
  std::unique_ptr<RulesWatcher> rules_watcher_;
  std::unique_ptr<StreamWindows> windows_;  // with a store or metrics
  std::unique_ptr<StreamUniqueState> unique_state_;  // with options_.unique_state
  Clock::time_point rules_checked_{};
  bool consumer_closed_ = false;
  int consecutive_aborts_ = 0;
  StreamTotals totals_;
};

}  // namespace

Result<StreamTotals> RunStream(const StreamOptions& options, const std::atomic<bool>& stop_requested) {
  if (options.batch_records < 1) return Status::UsageError("--batch-records: must be at least 1");
  if (options.batch_ms < 1) return Status::UsageError("--batch-ms: must be at least 1");
  StreamRunner runner(options, stop_requested);
  return runner.Run();
}

}  // namespace griffin::kafka
