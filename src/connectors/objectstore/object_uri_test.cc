#include "connectors/objectstore/object_uri.h"

#include <gtest/gtest.h>

namespace griffin {
namespace {

TEST(ObjectUriTest, ParsesBucketKeyAndQuery) {
  auto uri = ParseObjectUri("S3://bucket/dir/x.csv.gz?endpoint=http%3A%2F%2F127.0.0.1%3A9000&region=eu-west-1");
  ASSERT_TRUE(uri.ok()) << uri.status().message();
  EXPECT_EQ(uri->scheme, "s3");
  EXPECT_EQ(uri->bucket, "bucket");
  EXPECT_EQ(uri->key, "dir/x.csv.gz");
  EXPECT_EQ(uri->endpoint, "http://127.0.0.1:9000");
  EXPECT_EQ(uri->region, "eu-west-1");
  EXPECT_EQ(uri->Display(), "s3://bucket/dir/x.csv.gz");
  EXPECT_EQ(uri->FsPath(), "bucket/dir/x.csv.gz");
  EXPECT_FALSE(uri->IsPrefix());
  EXPECT_EQ(uri->Sibling("dir/y.csv"), "s3://bucket/dir/y.csv?endpoint=http://127.0.0.1:9000&region=eu-west-1");
}

TEST(ObjectUriTest, PrefixesAndWholeBuckets) {
  auto prefix = ParseObjectUri("gs://b/data/");
  ASSERT_TRUE(prefix.ok());
  EXPECT_EQ(prefix->scheme, "gs");
  EXPECT_TRUE(prefix->IsPrefix());
  auto bucket = ParseObjectUri("s3://b");
  ASSERT_TRUE(bucket.ok());
  EXPECT_TRUE(bucket->IsPrefix());
  EXPECT_EQ(bucket->FsPath(), "b");
  EXPECT_EQ(bucket->Display(), "s3://b");
  EXPECT_EQ(bucket->Sibling("k.csv"), "s3://b/k.csv");
}

TEST(ObjectUriTest, KeysAreLiteral) {
  auto uri = ParseObjectUri("s3://b/a%20b.csv");
  ASSERT_TRUE(uri.ok());
  EXPECT_EQ(uri->key, "a%20b.csv");
}

TEST(ObjectUriTest, RejectsWhatIsNotAnObjectUri) {
  EXPECT_TRUE(IsObjectStoreUri("s3://b/k"));
  EXPECT_TRUE(IsObjectStoreUri("GS://b"));
  EXPECT_FALSE(IsObjectStoreUri("s3:/b/k"));
  EXPECT_FALSE(IsObjectStoreUri("data/s3://x"));
  auto no_bucket = ParseObjectUri("s3:///key.csv");
  ASSERT_FALSE(no_bucket.ok());
  EXPECT_EQ(no_bucket.status().code(), StatusCode::kUsageError);
  EXPECT_EQ(no_bucket.status().message(), "s3:///key.csv: the URI names no bucket (expected s3://bucket/key)");
  auto unknown = ParseObjectUri("s3://b/k.csv?endpiont=http://x");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(),
            "s3://b/k.csv?endpiont=http://x: unknown URI parameter 'endpiont' (known: endpoint, region)");
  EXPECT_FALSE(ParseObjectUri("file:///x.csv").ok());
}

TEST(ObjectUriTest, Endpoints) {
  auto http = ParseEndpoint("http://127.0.0.1:9000/", "s3://b/k");
  ASSERT_TRUE(http.ok());
  EXPECT_EQ(http->scheme, "http");
  EXPECT_EQ(http->host_port, "127.0.0.1:9000");
  auto bare = ParseEndpoint("minio.local:9000", "s3://b/k");
  ASSERT_TRUE(bare.ok());
  EXPECT_EQ(bare->scheme, "https");
  EXPECT_EQ(bare->host_port, "minio.local:9000");
  auto ftp = ParseEndpoint("ftp://h", "s3://b/k");
  ASSERT_FALSE(ftp.ok());
  EXPECT_EQ(ftp.status().message(), "s3://b/k: endpoint 'ftp://h' is not http(s)://host[:port]");
  EXPECT_FALSE(ParseEndpoint("http://h/path", "s3://b/k").ok());
  EXPECT_FALSE(ParseEndpoint("", "s3://b/k").ok());
}

}  // namespace
}  // namespace griffin
