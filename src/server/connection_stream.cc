#include "server/connection_stream.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace griffin::server {
namespace {

// Small reads (cpp-httplib reads header and chunk lines a byte at a time)
// fetch this much from the socket into the pending input.
constexpr size_t kReadAhead = 16 * 1024;

void AddressOf(const sockaddr_storage& address, std::string& ip, int& port) {
  char text[INET6_ADDRSTRLEN] = {};
  if (address.ss_family == AF_INET) {
    const auto& v4 = reinterpret_cast<const sockaddr_in&>(address);
    ::inet_ntop(AF_INET, &v4.sin_addr, text, sizeof text);
    port = ntohs(v4.sin_port);
  } else if (address.ss_family == AF_INET6) {
    const auto& v6 = reinterpret_cast<const sockaddr_in6&>(address);
    ::inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof text);
    port = ntohs(v6.sin6_port);
  }
  ip = text;
}

}  // namespace

ConnectionStream::ConnectionStream(int fd, std::string* input, Clock::time_point read_deadline,
                                   Clock::duration write_timeout)
    : fd_(fd), input_(input), read_deadline_(read_deadline), write_timeout_(write_timeout) {}

bool ConnectionStream::WaitFor(short events, Clock::time_point deadline) const {
  for (;;) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return false;
    pollfd waiting{fd_, events, 0};
    const int ready = ::poll(&waiting, 1, static_cast<int>(std::min<int64_t>(left, 1 << 30)));
    if (ready > 0) return true;
    if (ready < 0 && errno != EINTR) return false;
  }
}

bool ConnectionStream::is_readable() const {
  return consumed_ < input_->size() || WaitFor(POLLIN, read_deadline_);
}

bool ConnectionStream::is_writable() const { return WaitFor(POLLOUT, Clock::now() + write_timeout_); }

ssize_t ConnectionStream::Receive(char* ptr, size_t size) {
  for (;;) {
    const ssize_t got = ::recv(fd_, ptr, size, MSG_DONTWAIT);
    if (got > 0) return got;
    if (got == 0) return -1;  // the client closed: no more bytes will come
    if (errno == EINTR) continue;
    if ((errno != EAGAIN && errno != EWOULDBLOCK) || !WaitFor(POLLIN, read_deadline_)) return -1;
  }
}

ssize_t ConnectionStream::read(char* ptr, size_t size) {
  if (size == 0) return 0;
  if (consumed_ == input_->size()) {
    input_->clear();  // all used: the pending input holds at most one read-ahead
    consumed_ = 0;
    if (size >= kReadAhead) return Receive(ptr, size);  // a large read: straight into the caller's buffer
    input_->resize(kReadAhead);
    const ssize_t got = Receive(input_->data(), kReadAhead);
    input_->resize(got < 0 ? 0 : static_cast<size_t>(got));
    if (got < 0) return -1;
  }
  const size_t n = std::min(size, input_->size() - consumed_);
  std::memcpy(ptr, input_->data() + consumed_, n);
  consumed_ += n;
  return static_cast<ssize_t>(n);
}

ssize_t ConnectionStream::write(const char* ptr, size_t size) {
  const Clock::time_point deadline = Clock::now() + write_timeout_;
  for (;;) {
    const ssize_t sent = ::send(fd_, ptr, size, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (sent >= 0) return sent;
    if (errno == EINTR) continue;
    if ((errno != EAGAIN && errno != EWOULDBLOCK) || !WaitFor(POLLOUT, deadline)) return -1;
  }
}

void ConnectionStream::get_remote_ip_and_port(std::string& ip, int& port) const {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  if (::getpeername(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0) AddressOf(address, ip, port);
}

void ConnectionStream::get_local_ip_and_port(std::string& ip, int& port) const {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0) AddressOf(address, ip, port);
}

}  // namespace griffin::server
