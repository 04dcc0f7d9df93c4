#include "server/http_service.h"

#include <sys/resource.h>
#include <sys/socket.h>

#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <mutex>

#include "report/html/html_assets.h"
#include "server/connection_stream.h"
#include "server/http_framing.h"
#include "server/http_front.h"
#include "server/http_routes.h"
#include "server/http_task_queue.h"
#include "server/in_flight_slot.h"
#include "server/service_json.h"
#include "server/ui_pages.h"
#include "util/value_parse.h"

namespace griffin::server {
namespace {

using Clock = std::chrono::steady_clock;
using httplib::Request;
using httplib::Response;

// Idle keep-alive connections are closed after this; it also bounds how long
// a drain waits for an idle client.
constexpr time_t kKeepAliveSeconds = 2;
constexpr size_t kKeepAliveRequests = 100000;

// Set by the pre-routing handler for the request this thread is handling.
// cpp-httplib answers a request it cannot parse (a bad request line or
// headers: 400, an over-long URI: 414) without routing it, so the logger
// sees such a request with t_request_routed false: it has no start time.
// (A routed request whose answer could not be written leaves the flag set;
// its connection is closed, so only a malformed first request of the next
// connection on this thread could be taken for a routed one.)
thread_local Clock::time_point t_request_start;
thread_local bool t_request_routed = false;

// The listen backlog: cpp-httplib's is 5, so a burst overflowed it and
// clients waited for SYN retries. The kernel caps it at net.core.somaxconn.
constexpr int kListenBacklog = 4096;
// File descriptors kept for everything but client connections (the store,
// rule files, Flight).
constexpr rlim_t kReservedDescriptors = 256;

thread_local bool t_response_closes = false;  // the answer just written said "Connection: close"

// cpp-httplib's server with a way to stop accepting that keeps serving the
// connections already accepted (TLS: shutting the listening socket down ends
// the accept loop, which then drains the task queue; stop() would also make
// queued connections close unanswered), and its request parser opened to
// HttpFront (plain HTTP).
template <typename Base>
class Graceful : public Base {
 public:
  using Base::Base;
  void StopAccepting() { ::shutdown(this->svr_sock_, SHUT_RDWR); }
  int ListenSocket() const { return this->svr_sock_; }
  // One request from `stream` (its headers, routing, its body as the handler reads it, the answer).
  bool ServeRequest(httplib::Stream& stream, bool close_connection, bool& connection_closed,
                    const std::function<void(Request&)>& setup) {
    return this->process_request(stream, close_connection, connection_closed, setup);
  }
};

// The most client connections the descriptor limit leaves room for.
int ConnectionCap(int configured) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return configured;
  const rlim_t room = limit.rlim_cur > 2 * kReservedDescriptors ? limit.rlim_cur - kReservedDescriptors : limit.rlim_cur / 2;
  return static_cast<int>(std::min<rlim_t>(static_cast<rlim_t>(configured), room));
}

void Json(Response& res, int status, const std::string& body) {
  res.status = status;
  res.set_content(body, "application/json");
}

void Refuse(Response& res, const Denial& denial, bool body_unread = false) {
  const int status = HttpStatusOf(denial.refusal);
  Json(res, status, ErrorJson(denial.message, denial.code));
  if (denial.refusal == Refusal::kUnauthenticated) res.set_header("WWW-Authenticate", "Bearer");
  if (denial.retry_after_s > 0) {
    res.set_header("Retry-After", std::to_string(static_cast<int64_t>(std::ceil(denial.retry_after_s))));
  }
  // An unread body would be taken for the next request on this connection.
  if (body_unread) res.set_header("Connection", "close");
}

// A page of /ui/, or the denial as the API answers it. The page's policy is
// sent as a header too: nothing loads, only the page's own script runs.
void Html(Response& res, const ServiceResult<std::string>& page) {
  if (!page.ok()) return Refuse(res, page.denial());
  res.status = 200;
  res.set_content(page.value(), "text/html; charset=utf-8");
  res.set_header("Content-Security-Policy", HtmlContentSecurityPolicy());
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_header("Cache-Control", "no-store");
}

// Query parameters: every one must be in `allowed`.
std::optional<Denial> CheckParams(const Request& req, std::initializer_list<const char*> allowed) {
  for (const auto& [name, value] : req.params) {
    bool known = false;
    std::string expected;
    for (const char* a : allowed) {
      known = known || name == a;
      expected += expected.empty() ? a : std::string(", ") + a;
    }
    if (!known) {
      return Denial{Refusal::kBadRequest, "unknown query parameter '" + name + "' (expected " +
                                              (expected.empty() ? std::string("none") : expected) + ")"};
    }
  }
  return std::nullopt;
}

std::optional<Denial> ReadCount(const Request& req, const char* name, int64_t low, int64_t high, int64_t* out) {
  if (!req.has_param(name)) return std::nullopt;
  std::optional<int64_t> value = ParseInt64(req.get_param_value(name));
  if (!value || *value < low || *value > high) {
    return Denial{Refusal::kBadRequest, std::string(name) + ": expected a whole number from " + std::to_string(low) +
                                            " to " + std::to_string(high)};
  }
  *out = *value;
  return std::nullopt;
}

}  // namespace

struct HttpService::Impl {
  explicit Impl(ServiceCore& c) : core(c) {}

  ServiceCore& core;
  std::unique_ptr<httplib::Server> server;
  Graceful<httplib::Server>* plain = nullptr;  // `server` when it is plain HTTP (served through `front`)
  std::unique_ptr<HttpFront> front;
  std::function<void()> stop_accepting;
  int port = 0;
  bool tls = false;
  std::atomic<bool> draining{false};
  std::atomic<int64_t> received{0}, answered{0}, in_flight{0};
  std::mutex serve_mutex;
  std::condition_variable serve_done;
  bool serving = false;

  // The checks before a handler: overflow, max_concurrent, key, rate limit.
  // `page`: a /ui/ page, whose key may also come as a browser's Basic
  // credentials (ui_pages.h), and whose 401 asks a browser for them.
  std::optional<Caller> Admit(const Request& req, Response& res, const InFlightSlot& slot, bool body_unread,
                              bool page = false) {
    if (HttpTaskQueue::IsOverflowThread() || slot.count() > core.config().limits.max_concurrent) {
      core.metrics().CountOverloaded(HttpTaskQueue::IsOverflowThread() ? "queue_full" : "busy");
      Refuse(res, {Refusal::kUnavailable, "the server is busy; try again", 1.0}, /*body_unread=*/true);
      return std::nullopt;
    }
    const std::string authorization = req.get_header_value("Authorization");
    ServiceResult<Caller> caller = core.Authenticate(page ? UiAuthorization(authorization) : authorization);
    if (!caller.ok()) {
      Refuse(res, caller.denial(), body_unread);
      if (page) res.set_header("WWW-Authenticate", kUiBasicChallenge);
      return std::nullopt;
    }
    if (std::optional<Denial> limited = core.Admit(caller.value())) {
      Refuse(res, *limited, body_unread);
      return std::nullopt;
    }
    return caller.value();
  }

  // The body, at most max_body_bytes (413 past that).
  bool ReadBody(const Request& req, const httplib::ContentReader& reader, Response& res, std::string* body) {
    const size_t limit = static_cast<size_t>(core.config().limits.max_body_bytes);
    const std::optional<int64_t> declared = ParseInt64(req.get_header_value("Content-Length"));
    if (declared && *declared > 0 && static_cast<size_t>(*declared) <= limit) body->reserve(static_cast<size_t>(*declared));
    bool too_large = false;
    const bool complete = reader([&](const char* data, size_t length) {
      too_large = body->size() + length > limit;
      if (!too_large) body->append(data, length);
      return !too_large;
    });
    if (too_large || (!complete && res.status == 413)) {  // 413: httplib saw a Content-Length past the limit
      Refuse(res, {Refusal::kPayloadTooLarge, "the body is larger than max_body_bytes (" + std::to_string(limit) + ")"},
             /*body_unread=*/true);
      return false;
    }
    if (!complete) {
      Refuse(res, {Refusal::kBadRequest, "the body could not be read"}, /*body_unread=*/true);
      return false;
    }
    return true;
  }

  void Validate(const Request& req, Response& res, const httplib::ContentReader& reader) {
    InFlightSlot slot(in_flight);
    std::optional<Caller> caller = Admit(req, res, slot, /*body_unread=*/true);
    if (!caller) return;
    ServiceResult<std::shared_ptr<const Dataset>> dataset = core.DatasetFor(*caller, req.matches[1]);
    if (!dataset.ok()) return Refuse(res, dataset.denial(), true);
    if (req.has_param("source")) return ValidateSource(req, res, reader, *caller, *dataset.value());
    std::optional<BodyFormat> format = BodyFormatOf(req.get_header_value("Content-Type"));
    if (!format) {
      return Refuse(res, {Refusal::kUnsupportedMediaType, "Content-Type '" + req.get_header_value("Content-Type") +
                                                              "' is not one of " + AcceptedContentTypes()},
                    true);
    }
    ServiceCore::ValidateOptions options;
    if (auto bad = CheckParams(req, {"max_violations", "store", "batch_hash"})) return Refuse(res, *bad, true);
    if (auto bad = ReadCount(req, "max_violations", 0, 1000000, &options.max_violations)) return Refuse(res, *bad, true);
    if (req.has_param("store")) {
      const std::string store = req.get_param_value("store");
      if (store != "true" && store != "false") return Refuse(res, {Refusal::kBadRequest, "store: expected true or false"}, true);
      options.store = store == "true";
      options.await_record = options.store;  // asked for: answer once the run is written
    }
    if (req.has_param("batch_hash")) {
      options.batch_hash = req.get_param_value("batch_hash");
      if (!IsValidBatchHash(options.batch_hash)) {
        return Refuse(res, {Refusal::kBadRequest, "batch_hash: expected 1 to 128 characters of A-Z a-z 0-9 . _ : -"}, true);
      }
    }
    std::string body;
    if (!ReadBody(req, reader, res, &body)) return;
    ServiceResult<ValidationOutcome> outcome = core.Validate(*caller, *dataset.value(), body, *format, options);
    if (!outcome.ok()) return Refuse(res, outcome.denial());
    Json(res, 200, outcome->json);
  }

  // POST /v1/datasets/{dataset}/validate?source=true: the dataset's configured
  // source (a database table), read by the service; the body must be empty.
  void ValidateSource(const Request& req, Response& res, const httplib::ContentReader& reader, const Caller& caller,
                      const Dataset& dataset) {
    ServiceCore::ValidateOptions options;
    if (auto bad = CheckParams(req, {"max_violations", "store", "source"})) return Refuse(res, *bad, true);
    if (req.get_param_value("source") != "true")
      return Refuse(res, {Refusal::kBadRequest, "source: expected true (or leave it out to send the rows)"}, true);
    if (auto bad = ReadCount(req, "max_violations", 0, 1000000, &options.max_violations)) return Refuse(res, *bad, true);
    if (req.has_param("store")) {
      const std::string store = req.get_param_value("store");
      if (store != "true" && store != "false") return Refuse(res, {Refusal::kBadRequest, "store: expected true or false"}, true);
      options.store = store == "true";
      options.await_record = options.store;
    }
    std::string body;
    if (!ReadBody(req, reader, res, &body)) return;
    if (!body.empty())
      return Refuse(res, {Refusal::kBadRequest, "source=true reads the dataset's source: send no body"});
    ServiceResult<ValidationOutcome> outcome = core.ValidateSource(caller, dataset, options);
    if (!outcome.ok()) return Refuse(res, outcome.denial());
    Json(res, 200, outcome->json);
  }

  void Score(const Request& req, Response& res, const httplib::ContentReader& reader) {
    InFlightSlot slot(in_flight);
    std::optional<Caller> caller = Admit(req, res, slot, /*body_unread=*/true);
    if (!caller) return;
    if (auto bad = CheckParams(req, {})) return Refuse(res, *bad, true);
    const std::string type = req.get_header_value("Content-Type");
    if (type.substr(0, type.find(';')) != "application/json") {
      return Refuse(res, {Refusal::kUnsupportedMediaType, "Content-Type must be application/json, not '" + type + "'"}, true);
    }
    std::string body;
    if (!ReadBody(req, reader, res, &body)) return;
    ServiceResult<std::string> answer = core.ScoreMetrics(*caller, body);
    if (!answer.ok()) return Refuse(res, answer.denial());
    Json(res, 200, answer.value());
  }

  // GET routes: no body.
  template <typename Handler>
  httplib::Server::Handler Get(Handler handler, bool page = false) {
    return [this, handler, page](const Request& req, Response& res) {
      InFlightSlot slot(in_flight);
      std::optional<Caller> caller = Admit(req, res, slot, /*body_unread=*/false, page);
      if (caller) handler(req, res, *caller);
    };
  }

  void AddRoutes() {
    httplib::Server& s = *server;
    s.Get("/healthz", [this](const Request& req, Response& res) {
      if (draining) return Json(res, 503, "{\"status\": \"draining\"}");
      Json(res, 200, "{\"status\": \"ok\", \"datasets\": " + std::to_string(core.registry().All().size()) +
                         ", \"version\": \"" GRIFFIN_VERSION "\"}");
    });
    s.Get("/metrics", Get([this](const Request& req, Response& res, const Caller&) {
      if (auto bad = CheckParams(req, {})) return Refuse(res, *bad);
      res.set_content(core.PrometheusText(), "text/plain; version=0.0.4; charset=utf-8");
    }));
    s.Get("/v1/datasets", Get([this](const Request& req, Response& res, const Caller& caller) {
      if (auto bad = CheckParams(req, {})) return Refuse(res, *bad);
      Json(res, 200, core.DatasetsJson(caller));
    }));
    s.Get("/v1/runs", Get([this](const Request& req, Response& res, const Caller& caller) {
      if (auto bad = CheckParams(req, {"dataset", "limit"})) return Refuse(res, *bad);
      if (!req.has_param("dataset") || req.get_param_value("dataset").empty()) {
        return Refuse(res, {Refusal::kBadRequest, "dataset: missing (GET /v1/runs?dataset=NAME)"});
      }
      int64_t limit = 100;
      if (auto bad = ReadCount(req, "limit", 1, 10000, &limit)) return Refuse(res, *bad);
      ServiceResult<std::string> runs = core.RunsJson(caller, req.get_param_value("dataset"), static_cast<int>(limit));
      if (!runs.ok()) return Refuse(res, runs.denial());
      Json(res, 200, runs.value());
    }));
    // The web pages (ui_pages.h): HTML, behind the same keys as the API.
    s.Get("/ui/", Get([this](const Request& req, Response& res, const Caller& caller) {
      if (auto bad = CheckParams(req, {})) return Refuse(res, *bad);
      Html(res, UiIndexPage(core, caller));
    }, /*page=*/true));
    s.Get(R"(/ui/runs/([A-Za-z0-9_.:-]{1,128}))", Get([this](const Request& req, Response& res, const Caller& caller) {
      if (auto bad = CheckParams(req, {})) return Refuse(res, *bad);
      Html(res, UiRunPage(core, caller, req.matches[1]));
    }, /*page=*/true));
    s.Post("/metrics", [this](const Request& req, Response& res, const httplib::ContentReader& reader) {
      Score(req, res, reader);
    });
    s.Post(R"(/v1/datasets/([^/]+)/validate)",
           [this](const Request& req, Response& res, const httplib::ContentReader& reader) {
             Validate(req, res, reader);
           });
    s.set_pre_routing_handler([this](const Request& req, Response& res) {
      t_request_start = Clock::now();
      t_request_routed = true;
      ++received;
      // Before any body is read: a body whose end is ambiguous is not read at all.
      if (std::optional<std::string> bad = FramingError(req.headers)) {
        Refuse(res, {Refusal::kBadRequest, *bad}, /*body_unread=*/true);
        return httplib::Server::HandlerResponse::Handled;
      }
      if (IsForbiddenMethod(req.method)) {
        res.set_header("Allow", AllowedMethods(RouteOf(req.method, req.path)));
        Json(res, 405, ErrorJson("method " + req.method + " not allowed"));
        res.set_header("Connection", "close");
        return httplib::Server::HandlerResponse::Handled;
      }
      return httplib::Server::HandlerResponse::Unhandled;
    });
    s.set_post_routing_handler([this](const Request&, Response& res) {
      if (draining) res.set_header("Connection", "close");
    });
    s.set_error_handler([this](const Request& req, Response& res) {
      if (!res.body.empty()) return;
      if (res.status == 404) {
        const std::string route = RouteOf(req.method, req.path);
        if (route != "other") {
          res.status = 405;
          res.set_header("Allow", AllowedMethods(route));
          return Json(res, 405, ErrorJson("method " + req.method + " not allowed on " + req.path));
        }
        return Json(res, 404, ErrorJson("no route " + req.method + " " + req.path));
      }
      Json(res, res.status, ErrorJson(res.status == 413 ? "the body is larger than max_body_bytes"
                                                        : "HTTP " + std::to_string(res.status)));
      if (draining) res.set_header("Connection", "close");
    });
    s.set_exception_handler([](const Request&, Response& res, std::exception_ptr) {
      Json(res, 500, ErrorJson("internal error"));
    });
    // Called once per answer written. A malformed request is received and
    // answered here at once, counted under route "malformed" with no latency.
    s.set_logger([this](const Request& req, const Response& res) {
      const bool routed = t_request_routed;
      t_request_routed = false;
      if (!routed) {
        ++received;
        ++answered;
        core.metrics().CountRequest("http", "malformed", res.status, std::nullopt);
        return;
      }
      ++answered;
      t_response_closes = res.get_header_value("Connection") == "close";
      const double seconds = std::chrono::duration<double>(Clock::now() - t_request_start).count();
      core.metrics().CountRequest("http", RouteOf(req.method, req.path), res.status, seconds);
    });
  }

  // HttpFront's Serve: one request of a plain HTTP connection.
  bool ServeOne(int fd, std::string* input) {
    const auto timeout = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(core.config().limits.request_timeout_s));
    ConnectionStream stream(fd, input, Clock::now() + timeout, timeout);
    bool connection_closed = false;
    t_response_closes = false;
    const bool answered_fully = plain->ServeRequest(stream, /*close_connection=*/draining.load(), connection_closed,
                                                    NoLengthMeansEmpty);
    input->erase(0, stream.consumed());
    return answered_fully && !connection_closed && !t_response_closes && !draining;
  }

  // The answers HttpFront gives itself, in the request metrics.
  void CountFrontAnswer(int status) {
    if (status == 503) core.metrics().CountOverloaded("queue_full");
    core.metrics().CountRequest("http", "other", status, 0);
  }
};

HttpService::HttpService(ServiceCore& core) : impl_(std::make_unique<Impl>(core)) {}

HttpService::~HttpService() = default;

Status HttpService::Bind(const std::string& host, int port) {
  const ServiceConfig& config = impl_->core.config();
  if (!config.tls_cert.empty()) {
    auto server = std::make_unique<Graceful<httplib::SSLServer>>(config.tls_cert.c_str(), config.tls_key.c_str());
    if (!server->is_valid()) {
      return Status::UsageError("tls: cannot load the certificate " + config.tls_cert + " and key " + config.tls_key);
    }
    impl_->stop_accepting = [raw = server.get()] { raw->StopAccepting(); };
    impl_->server = std::move(server);
    impl_->tls = true;
  } else {
    auto server = std::make_unique<Graceful<httplib::Server>>();
    impl_->plain = server.get();
    impl_->server = std::move(server);
  }
  httplib::Server& s = *impl_->server;
  const ServiceLimits& limits = config.limits;
  const int threads = limits.http_threads, queued = limits.max_queued_connections;
  s.new_task_queue = [threads, queued] { return new HttpTaskQueue(threads, queued); };
  const auto timeout = std::chrono::microseconds(static_cast<int64_t>(limits.request_timeout_s * 1e6));
  s.set_read_timeout(timeout);
  s.set_write_timeout(timeout);
  s.set_keep_alive_timeout(kKeepAliveSeconds);
  s.set_keep_alive_max_count(kKeepAliveRequests);
  s.set_payload_max_length(static_cast<size_t>(limits.max_body_bytes));
  s.set_tcp_nodelay(true);
  // SO_REUSEADDR only: cpp-httplib's default also sets SO_REUSEPORT, which
  // would let a second server bind the same port and take half its connections.
  s.set_socket_options([](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  impl_->AddRoutes();
  if (port == 0) {
    impl_->port = s.bind_to_any_port(host);
    if (impl_->port <= 0) return Status::UsageError("--listen " + host + ":0: cannot bind");
  } else if (!s.bind_to_port(host, port)) {
    return Status::UsageError("--listen " + host + ":" + std::to_string(port) + ": cannot bind (in use?)");
  } else {
    impl_->port = port;
  }
  if (impl_->plain != nullptr) {
    const int listen_fd = impl_->plain->ListenSocket();
    ::listen(listen_fd, kListenBacklog);  // again: only the backlog changes
    HttpFront::Options front;
    front.workers = threads;
    front.max_queued = queued;
    front.max_connections = ConnectionCap(limits.max_connections);
    front.header_timeout = std::chrono::duration_cast<HttpFront::Clock::duration>(
        std::chrono::duration<double>(limits.header_timeout_s));
    front.keep_alive = std::chrono::seconds(kKeepAliveSeconds);
    Impl* impl = impl_.get();
    impl_->front = std::make_unique<HttpFront>(
        listen_fd, front, [impl](int fd, std::string* input) { return impl->ServeOne(fd, input); },
        [impl](int status) { impl->CountFrontAnswer(status); });
    impl_->stop_accepting = [impl] { impl->front->StopAccepting(); };
  } else {
    auto* tls = static_cast<Graceful<httplib::SSLServer>*>(impl_->server.get());
    ::listen(tls->ListenSocket(), kListenBacklog);
  }
  std::lock_guard<std::mutex> lock(impl_->serve_mutex);
  impl_->serving = true;  // until Serve() returns
  return Status::OK();
}

int HttpService::port() const { return impl_->port; }
bool HttpService::tls() const { return impl_->tls; }
int64_t HttpService::received() const { return impl_->received.load(); }
int64_t HttpService::answered() const { return impl_->answered.load(); }
int64_t HttpService::in_flight() const { return impl_->in_flight.load(); }

void HttpService::Serve() {
  // Both return after StopAccepting, once every accepted request is answered.
  if (impl_->front) {
    impl_->front->Run();
  } else {
    impl_->server->listen_after_bind();
  }
  std::lock_guard<std::mutex> lock(impl_->serve_mutex);
  impl_->serving = false;
  impl_->serve_done.notify_all();
}

void HttpService::Drain() {
  impl_->draining = true;
  if (impl_->stop_accepting) impl_->stop_accepting();
  std::unique_lock<std::mutex> lock(impl_->serve_mutex);
  impl_->serve_done.wait(lock, [this] { return !impl_->serving; });
}

}  // namespace griffin::server
