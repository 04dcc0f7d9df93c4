#include "server/service_runner.h"

#include <gtest/gtest.h>

namespace griffin::server {
namespace {

TEST(ServiceRunnerTest, HostAndPort) {
  std::string host;
  int port = -1;
  ASSERT_TRUE(SplitHostPort("127.0.0.1:8080", "--listen", &host, &port).ok());
  EXPECT_EQ(host, "127.0.0.1");
  EXPECT_EQ(port, 8080);
  ASSERT_TRUE(SplitHostPort("[::1]:0", "--listen", &host, &port).ok());
  EXPECT_EQ(host, "::1");
  EXPECT_EQ(port, 0);
  EXPECT_EQ(SplitHostPort("8080", "--listen", &host, &port).message(), "--listen: expected HOST:PORT, got '8080'");
  EXPECT_EQ(SplitHostPort(":80", "--flight", &host, &port).message(), "--flight: expected HOST:PORT, got ':80'");
  EXPECT_EQ(SplitHostPort("h:99999", "--listen", &host, &port).message(), "--listen: bad port in 'h:99999'");
  EXPECT_EQ(SplitHostPort("h:x", "--listen", &host, &port).message(), "--listen: bad port in 'h:x'");
}

}  // namespace
}  // namespace griffin::server
