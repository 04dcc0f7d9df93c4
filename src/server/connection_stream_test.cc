#include "server/connection_stream.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

namespace griffin::server {
namespace {

using Clock = ConnectionStream::Clock;

struct SocketPair {
  int ours = -1, theirs = -1;
  SocketPair() {
    int fds[2];
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    ours = fds[0];
    theirs = fds[1];
  }
  ~SocketPair() {
    ::close(ours);
    ::close(theirs);
  }
};

std::string ReadAll(ConnectionStream& stream, size_t size) {
  std::string out(size, '\0');
  size_t got = 0;
  while (got < size) {
    const ssize_t n = stream.read(out.data() + got, size - got);
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  out.resize(got);
  return out;
}

TEST(ConnectionStreamTest, PendingInputComesFirstAndTheRestStaysPending) {
  SocketPair pair;
  std::string input = "GET / HTTP/1.1\r\n";
  ASSERT_EQ(::write(pair.theirs, "\r\nGET /next", 11), 11);
  ConnectionStream stream(pair.ours, &input, Clock::now() + std::chrono::seconds(5), std::chrono::seconds(5));
  EXPECT_EQ(ReadAll(stream, 18), "GET / HTTP/1.1\r\n\r\n");
  // What the socket gave past the request waits for the next one.
  input.erase(0, stream.consumed());
  EXPECT_EQ(input, "GET /next");
}

TEST(ConnectionStreamTest, ReadsStopAtTheRequestDeadline) {
  SocketPair pair;
  std::string input;
  const Clock::time_point began = Clock::now();
  ConnectionStream stream(pair.ours, &input, began + std::chrono::milliseconds(100), std::chrono::seconds(1));
  char byte;
  EXPECT_EQ(stream.read(&byte, 1), -1);  // nothing came before the deadline
  EXPECT_LT(Clock::now() - began, std::chrono::seconds(2));
  EXPECT_FALSE(stream.is_readable());
}

TEST(ConnectionStreamTest, WritesReachThePeer) {
  SocketPair pair;
  std::string input;
  ConnectionStream stream(pair.ours, &input, Clock::now() + std::chrono::seconds(1), std::chrono::seconds(1));
  EXPECT_EQ(stream.write("hello", 5), 5);
  char out[5];
  ASSERT_EQ(::read(pair.theirs, out, 5), 5);
  EXPECT_EQ(std::string(out, 5), "hello");
  ::close(pair.theirs);  // the peer is gone: a read ends at once
  pair.theirs = -1;
  char byte;
  EXPECT_EQ(stream.read(&byte, 1), -1);
}

}  // namespace
}  // namespace griffin::server
