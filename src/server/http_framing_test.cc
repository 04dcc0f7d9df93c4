#include "server/http_framing.h"

#include <gtest/gtest.h>

namespace griffin::server {
namespace {

std::string ErrorOf(httplib::Headers headers) { return FramingError(headers).value_or("OK"); }

TEST(HttpFramingTest, PlainLengthsAndChunkedPass) {
  EXPECT_EQ(ErrorOf({}), "OK");
  EXPECT_EQ(ErrorOf({{"Content-Length", "0"}}), "OK");
  EXPECT_EQ(ErrorOf({{"Content-Length", "12"}, {"content-length", "12"}}), "OK");  // the same twice
  EXPECT_EQ(ErrorOf({{"Transfer-Encoding", "chunked"}}), "OK");
}

TEST(HttpFramingTest, AmbiguousFramingIsRefused) {
  EXPECT_EQ(ErrorOf({{"Content-Length", "5"}, {"Content-Length", "50"}}), "two different Content-Length headers (5, 50)");
  EXPECT_EQ(ErrorOf({{"Content-Length", "-5"}}), "Content-Length: expected a whole number of bytes, not '-5'");
  EXPECT_EQ(ErrorOf({{"Content-Length", "abc"}}), "Content-Length: expected a whole number of bytes, not 'abc'");
  EXPECT_EQ(ErrorOf({{"Content-Length", "5, 5"}}), "Content-Length: expected a whole number of bytes, not '5, 5'");
  EXPECT_EQ(ErrorOf({{"Content-Length", ""}}), "Content-Length: expected a whole number of bytes, not ''");
  EXPECT_EQ(ErrorOf({{"Content-Length", "99999999999999999999"}}),
            "Content-Length: expected a whole number of bytes, not '99999999999999999999'");
  EXPECT_EQ(ErrorOf({{"Transfer-Encoding", "chunked"}, {"Content-Length", "3"}}),
            "both Transfer-Encoding and Content-Length given");
  EXPECT_EQ(ErrorOf({{"Transfer-Encoding", "gzip, chunked"}}),
            "Transfer-Encoding: only 'chunked' is accepted, not 'gzip, chunked'");
  EXPECT_EQ(ErrorOf({{"Transfer-Encoding", "chunked"}, {"Transfer-Encoding", "chunked"}}), "Transfer-Encoding given twice");
}

TEST(HttpFramingTest, NoLengthMeansAnEmptyBody) {
  httplib::Request post;
  post.method = "POST";
  NoLengthMeansEmpty(post);
  EXPECT_EQ(post.get_header_value("Content-Length"), "0");
  httplib::Request chunked;
  chunked.method = "POST";
  chunked.set_header("Transfer-Encoding", "chunked");
  NoLengthMeansEmpty(chunked);
  EXPECT_FALSE(chunked.has_header("Content-Length"));
  httplib::Request get;
  get.method = "GET";
  NoLengthMeansEmpty(get);
  EXPECT_FALSE(get.has_header("Content-Length"));
}

TEST(HttpFramingTest, ForbiddenMethods) {
  EXPECT_TRUE(IsForbiddenMethod("TRACE"));
  EXPECT_TRUE(IsForbiddenMethod("CONNECT"));
  EXPECT_FALSE(IsForbiddenMethod("GET"));
}

}  // namespace
}  // namespace griffin::server
