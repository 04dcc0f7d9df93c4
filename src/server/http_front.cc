#include "server/http_front.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "server/service_json.h"
#include "util/value_parse.h"

namespace griffin::server {
namespace {

constexpr auto kTick = std::chrono::milliseconds(50);          // how often deadlines are checked
constexpr auto kLinger = std::chrono::seconds(2);              // reading after an answer that closes
constexpr auto kAcceptPause = std::chrono::milliseconds(100);  // out of file descriptors: try again after
constexpr int kServedInARow = 16;  // pipelined requests one worker serves before the others get a turn
constexpr size_t kReadChunk = 16 * 1024;

// A complete answer of the front's own: small enough for an empty socket
// buffer, so one non-blocking send writes it.
std::string FrontAnswer(int status, const std::string& error) {
  const char* reason = status == 408 ? "Request Timeout" : status == 503 ? "Service Unavailable" : "Bad Request";
  const std::string body = ErrorJson(error);
  return "HTTP/1.1 " + std::to_string(status) + " " + reason +
         "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
         (status == 503 ? "\r\nRetry-After: 1" : "") + "\r\nConnection: close\r\n\r\n" + body;
}

void SendOnce(int fd, const std::string& bytes) {
  (void)::send(fd, bytes.data(), bytes.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
}

}  // namespace

struct HttpFront::Connection {
  int fd = -1;
  std::string input;          // bytes read and not yet used by a request
  size_t scanned = 0;         // bytes of `input` searched for the end of the headers
  Clock::time_point deadline;
  bool started = false;       // a request's bytes are arriving (else idle between requests)
  bool lingering = false;     // answered and closing: input is read and dropped
  bool watched = false;       // in the epoll set
  bool on_worker = false;
};

HttpFront::HttpFront(int listen_fd, Options options, Serve serve, OnAnswer on_answer)
    : listen_fd_(listen_fd), options_(options), serve_(std::move(serve)), on_answer_(std::move(on_answer)) {
  // Accept() takes connections until none is left: it must not block.
  ::fcntl(listen_fd_, F_SETFL, ::fcntl(listen_fd_, F_GETFL) | O_NONBLOCK);
  epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
  wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  for (int fd : {listen_fd_, wake_fd_}) {
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.fd = fd;
    ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &event);
  }
}

HttpFront::~HttpFront() {
  for (auto& [fd, connection] : connections_) ::close(fd);
  for (int fd : {listen_fd_, wake_fd_, epoll_fd_})
    if (fd >= 0) ::close(fd);
}

void HttpFront::StopAccepting() {
  stopping_ = true;
  const uint64_t one = 1;
  (void)::write(wake_fd_, &one, sizeof one);
}

void HttpFront::Watch(int fd) {
  Connection& connection = *connections_.at(fd);
  if (connection.watched) return;
  epoll_event event{};
  event.events = EPOLLIN | EPOLLRDHUP;
  event.data.fd = fd;
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &event);
  connection.watched = true;
}

void HttpFront::Close(int fd) {
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
  ::close(fd);
  connections_.erase(fd);
}

void HttpFront::Run() {
  for (int i = 0; i < std::max(1, options_.workers); ++i) workers_.emplace_back([this] { Work(); });
  bool accepting = true;
  Clock::time_point next_check = Clock::now() + kTick;
  std::vector<epoll_event> events(256);
  for (;;) {
    if (stopping_ && accepting) {  // stop reading new requests; whole ones already queued are served
      accepting = false;
      listening_ = false;
      ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, listen_fd_, nullptr);
      std::vector<int> idle;
      for (const auto& [fd, connection] : connections_)
        if (!connection->on_worker) idle.push_back(fd);
      for (int fd : idle) Close(fd);
    }
    if (!accepting && on_workers_ == 0) break;
    const int ready = ::epoll_wait(epoll_fd_, events.data(), static_cast<int>(events.size()),
                                   static_cast<int>(kTick.count()));
    for (int i = 0; i < ready; ++i) {
      const int fd = events[i].data.fd;
      if (fd == wake_fd_) {
        uint64_t count;
        (void)::read(wake_fd_, &count, sizeof count);
      } else if (fd == listen_fd_) {
        if (accepting) Accept();
      } else if (auto found = connections_.find(fd); found != connections_.end()) {
        OnReadable(*found->second);
      }
    }
    TakeReturned();
    if (Clock::now() >= next_check) {
      ExpireDeadlines();
      next_check = Clock::now() + kTick;
    }
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_workers_ = true;
  }
  work_.notify_all();
  for (std::thread& worker : workers_) worker.join();
  workers_.clear();
  std::vector<int> left;
  for (const auto& [fd, connection] : connections_) left.push_back(fd);
  for (int fd : left) Close(fd);
}

void HttpFront::Accept() {
  for (;;) {
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        // Out of descriptors: leave the rest in the backlog for a moment
        // (the listening socket would otherwise wake this loop at once).
        ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, listen_fd_, nullptr);
        listening_ = false;
        accept_paused_until_ = Clock::now() + kAcceptPause;
      }
      return;
    }
    if (connections_.size() >= static_cast<size_t>(options_.max_connections)) {
      SendOnce(fd, FrontAnswer(503, "the server has too many open connections; try again"));
      if (on_answer_) on_answer_(503);
      ::close(fd);
      continue;
    }
    const int yes = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    auto connection = std::make_unique<Connection>();
    connection->fd = fd;
    connection->started = true;  // the first request's time runs from the accept
    connection->deadline = Clock::now() + options_.header_timeout;
    connections_.emplace(fd, std::move(connection));
    Watch(fd);
  }
}

bool HttpFront::HeaderComplete(Connection& connection) const {
  const size_t from = connection.scanned >= 3 ? connection.scanned - 3 : 0;
  connection.scanned = connection.input.size();
  return connection.input.find("\r\n\r\n", from) != std::string::npos;
}

void HttpFront::OnReadable(Connection& connection) {
  char chunk[kReadChunk];
  for (;;) {
    const ssize_t got = ::recv(connection.fd, chunk, sizeof chunk, MSG_DONTWAIT);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    if (got <= 0) return Close(connection.fd);  // the client closed, or the socket failed
    if (connection.lingering) continue;
    if (!connection.started) {
      connection.started = true;
      connection.deadline = Clock::now() + options_.header_timeout;
    }
    connection.input.append(chunk, static_cast<size_t>(got));
    if (HeaderComplete(connection)) return Dispatch(connection);
    if (connection.input.size() > options_.max_header_bytes) {
      return Answer(connection, 400,
                    "the request headers are larger than " + std::to_string(options_.max_header_bytes) + " bytes");
    }
  }
}

void HttpFront::Dispatch(Connection& connection) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (queued_.size() < static_cast<size_t>(options_.max_queued)) {
      queued_.push_back(&connection);
      connection.on_worker = true;
    }
  }
  if (!connection.on_worker) return Answer(connection, 503, "the server is busy; try again");
  ++on_workers_;
  if (connection.watched) ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, connection.fd, nullptr);
  connection.watched = false;
  work_.notify_one();
}

void HttpFront::Answer(Connection& connection, int status, const std::string& error) {
  SendOnce(connection.fd, FrontAnswer(status, error));
  if (on_answer_) on_answer_(status);
  Linger(connection);
}

void HttpFront::Linger(Connection& connection) {
  // Closing with unread input would reset the connection, and the client
  // could lose the answer: stop writing, read until it closes (or kLinger).
  ::shutdown(connection.fd, SHUT_WR);
  connection.lingering = true;
  connection.input.clear();
  connection.deadline = Clock::now() + kLinger;
  Watch(connection.fd);
}

void HttpFront::TakeReturned() {
  std::vector<std::pair<Connection*, bool>> back;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    back.swap(returned_);
  }
  for (auto [connection, keep_open] : back) {
    --on_workers_;
    connection->on_worker = false;
    if (stopping_) {
      Close(connection->fd);
    } else if (!keep_open) {
      Linger(*connection);
    } else {
      connection->scanned = 0;
      connection->started = !connection->input.empty();
      connection->deadline = Clock::now() + (connection->started ? options_.header_timeout : options_.keep_alive);
      if (HeaderComplete(*connection)) {
        Dispatch(*connection);
      } else {
        Watch(connection->fd);
      }
    }
  }
}

void HttpFront::ExpireDeadlines() {
  const Clock::time_point now = Clock::now();
  if (!listening_ && !stopping_ && now >= accept_paused_until_) {
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.fd = listen_fd_;
    ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, listen_fd_, &event);
    listening_ = true;
  }
  std::vector<int> expired;
  for (const auto& [fd, connection] : connections_)
    if (!connection->on_worker && now >= connection->deadline) expired.push_back(fd);
  for (int fd : expired) {
    Connection& connection = *connections_.at(fd);
    if (connection.lingering || connection.input.empty()) {
      Close(fd);  // idle, or done lingering
    } else {
      const auto seconds = std::chrono::duration<double>(options_.header_timeout).count();
      Answer(connection, 408, "the request headers did not arrive within " + FormatDouble(seconds) + " s");
    }
  }
}

void HttpFront::Work() {
  for (;;) {
    Connection* connection;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      work_.wait(lock, [this] { return stop_workers_ || !queued_.empty(); });
      if (queued_.empty()) return;
      connection = queued_.front();
      queued_.pop_front();
    }
    bool keep_open = true;
    for (int served = 0; keep_open && served < kServedInARow; ++served) {
      keep_open = serve_(connection->fd, &connection->input);
      if (!keep_open) break;
      // The next request, if it is already here (pipelined, or a fast
      // client): served on this worker without a trip through the front.
      char chunk[kReadChunk];
      while (connection->input.size() <= options_.max_header_bytes) {
        const ssize_t got = ::recv(connection->fd, chunk, sizeof chunk, MSG_DONTWAIT);
        if (got <= 0) break;
        connection->input.append(chunk, static_cast<size_t>(got));
      }
      if (connection->input.find("\r\n\r\n") == std::string::npos) break;
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      returned_.emplace_back(connection, keep_open);
    }
    const uint64_t one = 1;
    (void)::write(wake_fd_, &one, sizeof one);
  }
}

}  // namespace griffin::server
