#include "server/flight_service.h"

#include <arrow/buffer.h>
#include <arrow/flight/api.h>
#include <arrow/util/byte_size.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "server/body_validation.h"
#include "server/flight_protocol.h"
#include "server/in_flight_slot.h"

namespace griffin::server {
namespace {

namespace flight = arrow::flight;
using Clock = std::chrono::steady_clock;

arrow::Status ToFlight(const Denial& denial) {
  const std::string retry =
      denial.retry_after_s > 0 ? "; retry after " + std::to_string(static_cast<int64_t>(std::ceil(denial.retry_after_s))) + " s" : "";
  switch (denial.refusal) {
    case Refusal::kUnauthenticated: return flight::MakeFlightError(flight::FlightStatusCode::Unauthenticated, denial.message);
    case Refusal::kForbidden: return flight::MakeFlightError(flight::FlightStatusCode::Unauthorized, denial.message);
    case Refusal::kNotFound: return arrow::Status::KeyError(denial.message);
    case Refusal::kRateLimited:
    case Refusal::kUnavailable:
      // A code (service_status.h) ends the message, where HTTP has a "code" field.
      return flight::MakeFlightError(flight::FlightStatusCode::Unavailable,
                                     denial.message + retry + (denial.code.empty() ? "" : " [" + denial.code + "]"));
    case Refusal::kInternal: return flight::MakeFlightError(flight::FlightStatusCode::Internal, denial.message);
    default: return arrow::Status::Invalid(denial.message);
  }
}

// The client's batches as a RecordBatchReader for the engine. Batches of no
// rows are answered at once through `on_empty` (the engine skips them);
// every other batch becomes one engine batch, in order.
class ExchangeInput : public arrow::RecordBatchReader {
 public:
  ExchangeInput(flight::FlightMessageReader* reader, std::shared_ptr<arrow::Schema> schema, int64_t max_batch_bytes,
                std::function<arrow::Status(int64_t batch, int64_t first_row)> on_empty)
      : reader_(reader), schema_(std::move(schema)), max_batch_bytes_(max_batch_bytes), on_empty_(std::move(on_empty)) {}

  std::shared_ptr<arrow::Schema> schema() const override { return schema_; }

  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* out) override {
    for (;;) {
      ARROW_ASSIGN_OR_RAISE(flight::FlightStreamChunk chunk, reader_->Next());
      if (chunk.data == nullptr) {
        if (chunk.app_metadata != nullptr) continue;  // metadata only: nothing to validate
        *out = nullptr;
        return arrow::Status::OK();
      }
      const int64_t bytes = arrow::util::TotalBufferSize(*chunk.data);
      if (bytes > max_batch_bytes_) {
        return arrow::Status::Invalid("a batch of ", bytes, " bytes is larger than max_body_bytes (", max_batch_bytes_, ")");
      }
      bytes_ += bytes;
      const int64_t index = batches_++;
      if (chunk.data->num_rows() == 0) {
        ARROW_RETURN_NOT_OK(on_empty_(index, rows_));
        continue;
      }
      pending_.push_back({index, rows_, chunk.data->num_rows()});
      rows_ += chunk.data->num_rows();
      *out = std::move(chunk.data);
      return arrow::Status::OK();
    }
  }

  struct Pending {
    int64_t batch, first_row, rows;
  };
  // The input batch whose verdicts come next.
  std::optional<Pending> PopPending() {
    if (pending_.empty()) return std::nullopt;
    Pending next = pending_.front();
    pending_.pop_front();
    return next;
  }
  int64_t bytes() const { return bytes_; }

 private:
  flight::FlightMessageReader* reader_;
  std::shared_ptr<arrow::Schema> schema_;
  int64_t max_batch_bytes_;
  std::function<arrow::Status(int64_t, int64_t)> on_empty_;
  std::deque<Pending> pending_;
  int64_t batches_ = 0, rows_ = 0, bytes_ = 0;
};

// Times a call and counts it with the HTTP-equivalent status it ended with.
class CallMeter {
 public:
  CallMeter(ServiceCore& core, const char* route) : core_(core), route_(route), start_(Clock::now()) {}
  ~CallMeter() {
    core_.metrics().CountRequest("flight", route_, code_, std::chrono::duration<double>(Clock::now() - start_).count());
  }
  arrow::Status Fail(const Denial& denial) {
    code_ = HttpStatusOf(denial.refusal);
    return ToFlight(denial);
  }

 private:
  ServiceCore& core_;
  const char* route_;
  Clock::time_point start_;
  int code_ = 200;
};

std::string ReadPem(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

class FlightService::Server : public flight::FlightServerBase {
 public:
  explicit Server(ServiceCore& core) : core_(core) {}

  arrow::Status DoExchange(const flight::ServerCallContext& context, std::unique_ptr<flight::FlightMessageReader> reader,
                           std::unique_ptr<flight::FlightMessageWriter> writer) override {
    CallMeter meter(core_, "exchange");
    Admitted admitted(in_flight_);
    if (std::optional<Denial> refused = Admit(context, reader->descriptor(), &admitted)) return meter.Fail(*refused);
    const Dataset& dataset = *admitted.dataset;
    ARROW_ASSIGN_OR_RAISE(std::shared_ptr<arrow::Schema> schema, reader->GetSchema());
    ARROW_RETURN_NOT_OK(writer->Begin(ResultBatchBuilder::Schema()));
    const ResultBatchBuilder results(dataset.rules());
    auto write = [&](int64_t batch, int64_t first_row, int64_t rows, const RowVerdicts* verdicts) -> arrow::Status {
      Result<std::shared_ptr<arrow::RecordBatch>> built = results.Build(batch, first_row, rows, verdicts);
      if (!built.ok()) return arrow::Status::Invalid(built.status().message());
      return writer->WriteRecordBatch(**built);
    };
    auto input = std::make_shared<ExchangeInput>(
        reader.get(), schema, core_.config().limits.max_body_bytes,
        [&](int64_t batch, int64_t first_row) { return write(batch, first_row, 0, nullptr); });
    auto timed_out = std::make_shared<std::atomic<bool>>(false);
    ValidationOptions options = core_.EngineOptions(admitted.target.max_violations, Clock::time_point::max(), timed_out);
    options.max_in_flight = 1;  // the client may wait for each batch's results before sending the next
    options.batch_rows = std::numeric_limits<int64_t>::max();  // one engine batch per input batch
    options.on_rows = [&](const RowVerdicts& verdicts) -> Status {
      if (context.is_cancelled()) return Status::InputError("the client cancelled the exchange");
      std::optional<ExchangeInput::Pending> pending = input->PopPending();
      if (!pending) return Status::OK();  // the empty batch of an empty stream
      arrow::Status written = write(pending->batch, pending->first_row, pending->rows, &verdicts);
      if (written.ok()) return Status::OK();
      return Status::InputError("writing results: " + written.message());
    };
    Result<ValidationResult> result = core_.ValidatorFor(dataset)->ValidateReader(input, "<flight>", options);
    ServiceResult<ValidationOutcome> outcome = Finish(admitted, std::move(result), input->bytes());
    if (!outcome.ok()) return meter.Fail(outcome.denial());
    return writer->WriteMetadata(arrow::Buffer::FromString(outcome->json));
  }

  arrow::Status DoPut(const flight::ServerCallContext& context, std::unique_ptr<flight::FlightMessageReader> reader,
                      std::unique_ptr<flight::FlightMetadataWriter> writer) override {
    CallMeter meter(core_, "put");
    Admitted admitted(in_flight_);
    if (std::optional<Denial> refused = Admit(context, reader->descriptor(), &admitted)) return meter.Fail(*refused);
    const Dataset& dataset = *admitted.dataset;
    ARROW_ASSIGN_OR_RAISE(std::shared_ptr<arrow::Schema> schema, reader->GetSchema());
    auto input = std::make_shared<ExchangeInput>(reader.get(), schema, core_.config().limits.max_body_bytes,
                                                 [](int64_t, int64_t) { return arrow::Status::OK(); });
    auto timed_out = std::make_shared<std::atomic<bool>>(false);
    const double timeout = core_.config().limits.request_timeout_s;
    ValidationOptions options = core_.EngineOptions(
        admitted.target.max_violations, Clock::now() + std::chrono::microseconds(static_cast<int64_t>(timeout * 1e6)),
        timed_out);
    Result<ValidationResult> result = core_.ValidatorFor(dataset)->ValidateReader(input, "<flight>", options);
    if (timed_out->load()) return meter.Fail({Refusal::kUnavailable, "validation ran past the request timeout", 1.0});
    ServiceResult<ValidationOutcome> outcome = Finish(admitted, std::move(result), input->bytes());
    if (!outcome.ok()) return meter.Fail(outcome.denial());
    return writer->WriteMetadata(*arrow::Buffer::FromString(outcome->json));
  }

 private:
  struct Admitted {
    explicit Admitted(std::atomic<int64_t>& counter) : slot(counter) {}
    InFlightSlot slot;
    Caller caller;
    FlightTarget target;
    std::shared_ptr<const Dataset> dataset;
  };

  // Counts, remembers and records a finished run, as an HTTP validate does.
  ServiceResult<ValidationOutcome> Finish(const Admitted& admitted, Result<ValidationResult> result, int64_t bytes) {
    if (!result.ok()) return FromStatus(result.status());
    ServiceCore::ValidateOptions finish;
    finish.max_violations = admitted.target.max_violations;
    finish.store = admitted.target.store;
    finish.await_record = admitted.target.await_record;
    finish.batch_hash = admitted.target.batch_hash;
    finish.origin = "flight";
    return core_.Finish(admitted.caller, *admitted.dataset, std::move(result->report), bytes, finish);
  }

  std::optional<Denial> Admit(const flight::ServerCallContext& context, const flight::FlightDescriptor& descriptor,
                              Admitted* admitted) {
    if (admitted->slot.count() > core_.config().limits.max_concurrent) {
      core_.metrics().CountOverloaded("busy");
      return Denial{Refusal::kUnavailable, "the server is busy", 1.0};
    }
    const flight::CallHeaders& headers = context.incoming_headers();
    auto header = headers.find("authorization");
    const std::string_view authorization = header == headers.end() ? std::string_view() : header->second;
    ServiceResult<Caller> caller = core_.Authenticate(authorization);
    if (!caller.ok()) return caller.denial();
    admitted->caller = caller.value();
    if (std::optional<Denial> limited = core_.Admit(admitted->caller)) return limited;
    Result<FlightTarget> target = ParseFlightTarget(descriptor);
    if (!target.ok()) return FromStatus(target.status());
    admitted->target = *target;
    ServiceResult<std::shared_ptr<const Dataset>> dataset = core_.DatasetFor(admitted->caller, target->dataset);
    if (!dataset.ok()) return dataset.denial();
    admitted->dataset = dataset.value();
    return std::nullopt;
  }

  ServiceCore& core_;
  std::atomic<int64_t> in_flight_{0};
};

FlightService::FlightService(ServiceCore& core) : core_(core), server_(std::make_unique<Server>(core)) {}

FlightService::~FlightService() = default;

Status FlightService::Start(const std::string& host, int port) {
  const ServiceConfig& config = core_.config();
  const bool tls = !config.tls_cert.empty();
  auto location = tls ? flight::Location::ForGrpcTls(host, port) : flight::Location::ForGrpcTcp(host, port);
  if (!location.ok()) return Status::UsageError("--flight " + host + ":" + std::to_string(port) + ": " + location.status().message());
  flight::FlightServerOptions options(*location);
  if (tls) {
    flight::CertKeyPair pair;
    pair.pem_cert = ReadPem(config.tls_cert);
    pair.pem_key = ReadPem(config.tls_key);
    if (pair.pem_cert.empty() || pair.pem_key.empty()) {
      return Status::UsageError("tls: cannot read the certificate " + config.tls_cert + " and key " + config.tls_key);
    }
    options.tls_certificates.push_back(std::move(pair));
  }
  arrow::Status started = server_->Init(options);
  if (!started.ok()) {
    return Status::UsageError("--flight " + host + ":" + std::to_string(port) + ": cannot start: " + started.message());
  }
  return Status::OK();
}

int FlightService::port() const { return server_->port(); }

void FlightService::Shutdown(double deadline_s) {
  const auto deadline = std::chrono::system_clock::now() + std::chrono::microseconds(static_cast<int64_t>(deadline_s * 1e6));
  (void)server_->Shutdown(&deadline);
  (void)server_->Wait();
}

}  // namespace griffin::server
