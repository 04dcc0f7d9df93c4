// The connection front of the HTTP server: one thread that accepts and reads
// request headers for every connection (epoll, non-blocking), and a fixed
// pool of workers that serve requests whose header block has fully arrived.
// A slow client costs a socket and a buffer here, never a worker: headers
// must be complete within `header_timeout` of their first byte (else 408),
// an idle keep-alive connection is closed after `keep_alive`, and a header
// block past `max_header_bytes` is 400. When `max_queued` complete requests
// already wait for a worker, or `max_connections` are open, the front
// answers 503 with Retry-After at once, so every connection gets an answer.
//
//   HttpFront front(listen_fd, options, [&](int fd, std::string* input) { ...; return keep_open; });
//   std::thread t([&] { front.Run(); });   // ... front.StopAccepting(); t.join();
//
// Thread safety: StopAccepting() may be called from any thread; Run() once.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace griffin::server {

class HttpFront {
 public:
  using Clock = std::chrono::steady_clock;

  struct Options {
    int workers = 32;
    int max_queued = 256;              // complete requests waiting for a worker
    int max_connections = 10000;       // open connections (then 503 at once)
    Clock::duration header_timeout = std::chrono::seconds(10);
    Clock::duration keep_alive = std::chrono::seconds(2);
    size_t max_header_bytes = 64 * 1024;
  };

  // Serves the request at the front of `*input` (its header block is whole;
  // more bytes may follow on the socket) on a worker thread; true when the
  // connection stays open for another request. It erases what it used.
  using Serve = std::function<bool(int fd, std::string* input)>;
  // Told of every answer the front gives itself (408, 400, 503).
  using OnAnswer = std::function<void(int status)>;

  // Takes over `listen_fd` (bound and listening; closed by the destructor).
  HttpFront(int listen_fd, Options options, Serve serve, OnAnswer on_answer);
  ~HttpFront();

  // Accepts and serves until StopAccepting(); then answers every request
  // already whole (the Serve callback should close after it), closes the
  // other connections, and returns once the workers are idle.
  void Run();
  void StopAccepting();

 private:
  struct Connection;
  void Accept();
  void OnReadable(Connection& connection);
  bool HeaderComplete(Connection& connection) const;
  void Dispatch(Connection& connection);
  void Answer(Connection& connection, int status, const std::string& error);
  void Close(int fd);
  void Linger(Connection& connection);
  void TakeReturned();
  void ExpireDeadlines();
  void Work();
  void Watch(int fd);

  const int listen_fd_;
  const Options options_;
  const Serve serve_;
  const OnAnswer on_answer_;
  int epoll_fd_ = -1, wake_fd_ = -1;
  std::atomic<bool> stopping_{false};
  bool listening_ = true;                 // the listening socket is watched (front thread only)
  Clock::time_point accept_paused_until_{};
  std::unordered_map<int, std::unique_ptr<Connection>> connections_;  // front thread only
  int on_workers_ = 0;                    // connections queued or served now (front thread only)

  std::mutex mutex_;                      // guards the two queues and stop_workers_
  std::condition_variable work_;
  std::deque<Connection*> queued_;        // whole requests for the workers
  std::vector<std::pair<Connection*, bool>> returned_;  // (connection, keep open) back from workers
  bool stop_workers_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace griffin::server
