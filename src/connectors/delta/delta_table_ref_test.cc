#include "connectors/delta/delta_table_ref.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "io/io_test_util.h"

namespace griffin::delta {
namespace {

TEST(DeltaTableRefTest, PrefixAndTimeTravel) {
  auto latest = ParseDeltaTableRef("delta:/data/events");
  ASSERT_TRUE(latest.ok()) << latest.status().message();
  EXPECT_EQ(latest->location, "/data/events");
  EXPECT_FALSE(latest->version);
  EXPECT_FALSE(latest->timestamp_ms);
  EXPECT_EQ(latest->display, "delta:/data/events");

  auto version = ParseDeltaTableRef("/data/events@v=12");
  ASSERT_TRUE(version.ok());
  EXPECT_EQ(version->location, "/data/events");
  EXPECT_EQ(version->version, 12);
  EXPECT_EQ(version->display, "delta:/data/events@v=12");

  auto time = ParseDeltaTableRef("DELTA:rel/t@ts=2026-12-01T00:00:00Z");
  ASSERT_TRUE(time.ok());
  EXPECT_EQ(time->location, "rel/t");
  EXPECT_EQ(time->timestamp_ms, 1796083200000);  // 2026-12-01T00:00:00Z
  EXPECT_FALSE(time->version);

  auto local_uri = ParseDeltaTableRef("delta:file:///data/t");
  ASSERT_TRUE(local_uri.ok());
  EXPECT_EQ(local_uri->location, "/data/t");
}

TEST(DeltaTableRefTest, ObjectStoreQueryBecomesStoreOptions) {
  auto s3 = ParseDeltaTableRef("delta:s3://bucket/tables/e?endpoint=http://127.0.0.1:9000&region=eu-west-1@v=3");
  ASSERT_TRUE(s3.ok()) << s3.status().message();
  EXPECT_EQ(s3->location, "s3://bucket/tables/e");
  EXPECT_EQ(s3->version, 3);
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"aws_endpoint", "http://127.0.0.1:9000"}, {"aws_region", "eu-west-1"}};
  EXPECT_EQ(s3->store_options, expected);
  EXPECT_EQ(s3->display, "delta:s3://bucket/tables/e@v=3");  // the query (endpoint) is not shown
}

TEST(DeltaTableRefTest, AnEmulatorsEndpointMakesAnAnonymousPlainHttpClient) {
  auto gs = ParseDeltaTableRef("delta:gs://bucket/t?endpoint=http://127.0.0.1:4443");
  ASSERT_TRUE(gs.ok()) << gs.status().message();
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"google_base_url", "http://127.0.0.1:4443"}, {"allow_http", "true"},
      {"google_service_account_key",
       R"({"private_key": "", "private_key_id": "", "client_email": "", "disable_oauth": true})"}};
  EXPECT_EQ(gs->store_options, expected);
}

TEST(DeltaTableRefTest, WrongSuffixesAreUsageErrors) {
  for (const char* input : {"delta:/t@v=x", "delta:/t@v=-1", "delta:/t@ts=yesterday", "delta:", "delta:/t@v=",
                            "delta:http://h/t", "delta:s3://bucket/t?colour=red"}) {
    auto parsed = ParseDeltaTableRef(input);
    ASSERT_FALSE(parsed.ok()) << input;
    EXPECT_EQ(parsed.status().code(), StatusCode::kUsageError) << input;
  }
}

TEST(DeltaTableRefTest, AFolderHoldingADeltaLogIsATable) {
  testing::TempDir dir;
  std::filesystem::create_directories(dir.Path("t/_delta_log"));
  std::filesystem::create_directories(dir.Path("plain"));
  EXPECT_TRUE(IsDeltaInput(dir.Path("t")));
  EXPECT_TRUE(IsDeltaInput(dir.Path("t") + "@v=4"));
  EXPECT_TRUE(IsDeltaInput("file://" + dir.Path("t")));
  EXPECT_TRUE(IsDeltaInput("delta:" + dir.Path("nothing")));  // the prefix claims it; opening says what is wrong
  EXPECT_FALSE(IsDeltaInput(dir.Path("plain")));
  EXPECT_FALSE(IsDeltaInput(dir.Path("missing")));
  EXPECT_FALSE(IsDeltaInput("s3://bucket/t.parquet"));  // an object by its extension: no request
  EXPECT_FALSE(IsDeltaInput("data.csv"));
}

}  // namespace
}  // namespace griffin::delta
