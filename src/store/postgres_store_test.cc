// The PostgreSQL backend's connection handling: password redaction, and its
// bad inputs (a refused connection, wrong credentials), each a one-line
// StoreError naming the URI without its password. Wrong credentials need the
// test server (GRIFFIN_TEST_PG_URI; see store_test_util.h).
#include "store/postgres_store.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "store/store_test_util.h"

namespace griffin::store_test {
namespace {

// A local TCP port with nothing listening: bound, read and released.
int ClosedPort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  close(fd);
  return ntohs(addr.sin_port);
}

TEST(PostgresStoreTest, RedactsThePassword) {
  EXPECT_EQ(RedactPostgresUri("postgresql://u:secret@h:5432/db"), "postgresql://u@h:5432/db");
  EXPECT_EQ(RedactPostgresUri("postgres://u@h/db"), "postgres://u@h/db");
  EXPECT_EQ(RedactPostgresUri("postgresql://h/db"), "postgresql://h/db");
  EXPECT_EQ(RedactPostgresUri("postgresql://u:p%40ss@h/db?sslmode=require&password=x&a=b"),
            "postgresql://u@h/db?sslmode=require&a=b");
  EXPECT_EQ(RedactPostgresUri("postgresql:///db?password=x"), "postgresql:///db");
  EXPECT_EQ(RedactPostgresUri("postgresql://u:pw@h"), "postgresql://u@h");
}

TEST(PostgresStoreTest, RefusedConnectionIsAOneLineStoreError) {
  int port = ClosedPort();
  std::string uri = "postgresql://u:secret@127.0.0.1:" + std::to_string(port) + "/db";
  auto store = OpenRunStore(uri);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kStoreError);
  EXPECT_EQ(store.status().message(),
            "store postgresql://u@127.0.0.1:" + std::to_string(port) + "/db: connection refused");
}

TEST(PostgresStoreTest, WrongCredentialsAreAOneLineStoreError) {
  bool skip = false;
  std::string uri = PostgresTestUri(&skip);
  if (skip) GTEST_SKIP() << "GRIFFIN_NO_PG=1: PostgreSQL store tests skipped";
  ASSERT_FALSE(uri.empty());
  // postgresql://user:password@host... -> the same with a wrong password.
  size_t at = uri.find('@');
  size_t colon = uri.rfind(':', at);
  ASSERT_NE(at, std::string::npos);
  std::string wrong = uri.substr(0, colon) + ":wrong-password" + uri.substr(at);
  std::string user = uri.substr(uri.find("://") + 3, colon - uri.find("://") - 3);
  auto store = OpenRunStore(wrong);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kStoreError);
  EXPECT_EQ(store.status().message(),
            "store " + RedactPostgresUri(wrong) + ": password authentication failed for user \"" +
                user + "\"");
  EXPECT_EQ(store.status().message().find("wrong-password"), std::string::npos);
}

TEST(PostgresStoreTest, DescribeAndErrorsNeverShowThePassword) {
  bool skip = false;
  std::string uri = PostgresTestUri(&skip);
  if (skip) GTEST_SKIP() << "GRIFFIN_NO_PG=1: PostgreSQL store tests skipped";
  ASSERT_FALSE(uri.empty());
  auto conn = ConnectPostgres(uri);
  ASSERT_TRUE(conn.ok()) << conn.status().message();
  EXPECT_EQ((*conn)->Describe(), RedactPostgresUri(uri));
  auto bad = (*conn)->Query("SELECT * FROM no_such_table");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "store " + RedactPostgresUri(uri) + ": relation \"no_such_table\" does not exist");
  // Parameters of every type.
  auto rows = (*conn)->Query("SELECT $2::text, $1::bigint, $3::float8, $4::boolean, $5::text",
                             {SqlParam(int64_t{-7}), SqlParam(std::string("it's")),
                              SqlParam(0.1), SqlParam(true), SqlParam(std::monostate{})});
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  EXPECT_EQ((*rows)[0][0], "it's");
  EXPECT_EQ((*rows)[0][1], "-7");
  EXPECT_EQ(ParseDouble((*rows)[0][2]), 0.1);
  EXPECT_EQ((*rows)[0][3], "t");
  EXPECT_EQ((*rows)[0][4], std::nullopt);
}

}  // namespace
}  // namespace griffin::store_test
