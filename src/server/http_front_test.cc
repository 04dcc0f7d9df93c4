#include "server/http_front.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <future>

namespace griffin::server {
namespace {

using namespace std::chrono_literals;

// A front on a loopback port whose Serve answers "200 <path>" to each
// request (headers only), after `hold` is released when `gate` is set.
class FrontFixture {
 public:
  explicit FrontFixture(HttpFront::Options options, std::shared_future<void> gate = {}) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    EXPECT_EQ(::listen(fd, 64), 0);
    socklen_t length = sizeof address;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    front_ = std::make_unique<HttpFront>(
        fd, options,
        [gate](int client, std::string* input) {
          if (gate.valid()) gate.wait();
          const size_t end = input->find("\r\n\r\n");
          const std::string path = input->substr(4, input->find(' ', 4) - 4);
          input->erase(0, end + 4);
          const std::string answer = "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(path.size()) + "\r\n\r\n" + path;
          return ::send(client, answer.data(), answer.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(answer.size());
        },
        [this](int status) { front_answers_.fetch_add(1); });
    runner_ = std::thread([this] { front_->Run(); });
  }
  ~FrontFixture() {
    front_->StopAccepting();
    runner_.join();
  }

  int Connect() const {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(static_cast<uint16_t>(port_));
    EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    timeval timeout{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    return fd;
  }

  std::atomic<int> front_answers_{0};

 private:
  int port_ = 0;
  std::unique_ptr<HttpFront> front_;
  std::thread runner_;
};

void Send(int fd, const std::string& bytes) { ASSERT_EQ(::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL), (ssize_t)bytes.size()); }

// Reads until `count` answers ("HTTP/1.1 " lines) have arrived with their bodies, or the peer closes.
std::string Receive(int fd, size_t min_bytes) {
  std::string out;
  char chunk[4096];
  while (out.size() < min_bytes) {
    const ssize_t got = ::recv(fd, chunk, sizeof chunk, 0);
    if (got <= 0) break;
    out.append(chunk, static_cast<size_t>(got));
  }
  return out;
}

HttpFront::Options Small() {
  HttpFront::Options options;
  options.workers = 1;
  options.max_queued = 4;
  options.header_timeout = 300ms;
  options.keep_alive = 300ms;
  return options;
}

TEST(HttpFrontTest, ServesKeepAliveAndPipelinedRequestsInOrder) {
  FrontFixture front(Small());
  const int client = front.Connect();
  Send(client, "GET /a HTTP/1.1\r\n\r\n");
  EXPECT_EQ(Receive(client, 40), "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n/a");
  Send(client, "GET /b HTTP/1.1\r\n\r\nGET /c HTTP/1.1\r\n\r\nGET /d HT");
  Send(client, "TP/1.1\r\n\r\n");
  const std::string three = Receive(client, 120);
  EXPECT_EQ(three, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n/bHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n/c"
                   "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n/d");
  ::close(client);
}

TEST(HttpFrontTest, SlowHeadersGet408AndHoldNoWorker) {
  FrontFixture front(Small());  // one worker
  std::vector<int> slow;
  for (int i = 0; i < 20; ++i) {
    slow.push_back(front.Connect());
    Send(slow.back(), "GET /slow HTTP/1.1\r\nX-A: 1\r\n");
  }
  const int quick = front.Connect();
  Send(quick, "GET /quick HTTP/1.1\r\n\r\n");
  EXPECT_EQ(Receive(quick, 44), "HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\n/quick");
  for (int fd : slow) {
    const std::string answer = Receive(fd, 1 << 20);  // until the front closes it
    EXPECT_EQ(answer.rfind("HTTP/1.1 408 Request Timeout\r\n", 0), 0u) << answer;
    EXPECT_NE(answer.find("did not arrive within 0.3 s"), std::string::npos) << answer;
    ::close(fd);
  }
  std::this_thread::sleep_for(50ms);  // the count follows the send
  EXPECT_EQ(front.front_answers_.load(), 20);
  ::close(quick);
}

TEST(HttpFrontTest, AFullQueueIsAnswered503AtOnce) {
  std::promise<void> release;
  HttpFront::Options options = Small();
  options.max_queued = 1;
  FrontFixture front(options, release.get_future().share());
  const int busy = front.Connect();   // on the worker, held by the gate
  Send(busy, "GET /1 HTTP/1.1\r\n\r\n");
  std::this_thread::sleep_for(100ms);
  const int queued = front.Connect(); // waits in the queue
  Send(queued, "GET /2 HTTP/1.1\r\n\r\n");
  std::this_thread::sleep_for(100ms);
  const int refused = front.Connect();
  Send(refused, "GET /3 HTTP/1.1\r\n\r\n");
  const std::string answer = Receive(refused, 1 << 20);
  EXPECT_EQ(answer.rfind("HTTP/1.1 503 Service Unavailable\r\n", 0), 0u) << answer;
  EXPECT_NE(answer.find("Retry-After: 1\r\n"), std::string::npos);
  release.set_value();
  EXPECT_EQ(Receive(busy, 40), "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n/1");
  EXPECT_EQ(Receive(queued, 40), "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n/2");
  for (int fd : {busy, queued, refused}) ::close(fd);
}

TEST(HttpFrontTest, OversizedHeadersAre400) {
  HttpFront::Options options = Small();
  options.max_header_bytes = 1024;
  FrontFixture front(options);
  const int client = front.Connect();
  Send(client, "GET / HTTP/1.1\r\nX-A: " + std::string(4000, 'a'));
  const std::string answer = Receive(client, 1 << 20);
  EXPECT_EQ(answer.rfind("HTTP/1.1 400 Bad Request\r\n", 0), 0u) << answer;
  ::close(client);
}

}  // namespace
}  // namespace griffin::server
