// cpp-httplib's Stream over one accepted connection whose bytes may already
// be partly read: reads take the connection's pending input first, then the
// (non-blocking) socket. Every read must finish by one deadline for the whole
// request (a client that trickles its body cannot hold a thread past it);
// each write waits at most `write_timeout`. Bytes read past the request stay
// in the pending input for the next one (pipelining keeps its order).
//
//   ConnectionStream stream(fd, &connection.input, Clock::now() + timeout, timeout);
//   server.ServeRequest(stream, ...);
//   connection.input.erase(0, stream.consumed());
#pragma once

#include <chrono>
#include <string>

#include <httplib.h>

namespace griffin::server {

class ConnectionStream final : public httplib::Stream {
 public:
  using Clock = std::chrono::steady_clock;

  // `input` (the pending bytes) outlives the stream; reads append to it
  // what they take from the socket beyond the caller's buffer.
  ConnectionStream(int fd, std::string* input, Clock::time_point read_deadline, Clock::duration write_timeout);

  bool is_readable() const override;
  bool is_writable() const override;
  ssize_t read(char* ptr, size_t size) override;
  ssize_t write(const char* ptr, size_t size) override;
  void get_remote_ip_and_port(std::string& ip, int& port) const override;
  void get_local_ip_and_port(std::string& ip, int& port) const override;
  socket_t socket() const override { return fd_; }

  // How many bytes at the front of `input` the request used (the stream
  // drops bytes it has used up from `input` as it reads on).
  size_t consumed() const { return consumed_; }

 private:
  // Waits until the socket is ready for `events`, at most until `deadline`.
  bool WaitFor(short events, Clock::time_point deadline) const;
  // recv into `ptr`, waiting until the read deadline; -1 on error, timeout or EOF with nothing.
  ssize_t Receive(char* ptr, size_t size);

  const int fd_;
  std::string* const input_;
  size_t consumed_ = 0;
  const Clock::time_point read_deadline_;
  const Clock::duration write_timeout_;
};

}  // namespace griffin::server
