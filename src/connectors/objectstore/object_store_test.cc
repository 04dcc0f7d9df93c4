#include "connectors/objectstore/object_store.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace griffin {
namespace {

// Sets (or, with nullptr, unsets) the variables a test names and restores them after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    const char* old = std::getenv(name);
    if (old != nullptr) old_ = old;
    had_ = old != nullptr;
    if (value == nullptr) unsetenv(name);
    else setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (had_) setenv(name_, old_.c_str(), 1);
    else unsetenv(name_);
  }

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

ClientSettings SettingsOf(const std::string& text) {
  auto uri = ParseObjectUri(text);
  EXPECT_TRUE(uri.ok()) << uri.status().message();
  auto settings = ClientSettingsFor(*uri);
  EXPECT_TRUE(settings.ok()) << settings.status().message();
  return settings.ok() ? *settings : ClientSettings{};
}

TEST(ClientSettingsTest, TheUrisEndpointWinsOverTheEnvironment) {
  ScopedEnv s3("AWS_ENDPOINT_URL_S3", nullptr), any("AWS_ENDPOINT_URL", "http://10.0.0.1:9000");
  ScopedEnv region("AWS_REGION", nullptr), fallback("AWS_DEFAULT_REGION", nullptr);
  ClientSettings uri = SettingsOf("s3://b/k.csv?endpoint=http://127.0.0.1:9&region=eu-west-1");
  EXPECT_EQ(uri.endpoint_scheme, "http");
  EXPECT_EQ(uri.endpoint_host_port, "127.0.0.1:9");
  EXPECT_EQ(uri.region, "eu-west-1");
  ClientSettings env = SettingsOf("s3://b/k.csv");
  EXPECT_EQ(env.endpoint_host_port, "10.0.0.1:9000");
  EXPECT_EQ(env.region, "us-east-1");  // an S3-compatible store: any region
}

TEST(ClientSettingsTest, S3SpecificEndpointAndRegionVariablesComeFirst) {
  ScopedEnv s3("AWS_ENDPOINT_URL_S3", "https://s3.example:443"), any("AWS_ENDPOINT_URL", "http://10.0.0.1:9000");
  ScopedEnv region("AWS_REGION", "ap-south-1"), fallback("AWS_DEFAULT_REGION", "eu-north-1");
  ClientSettings settings = SettingsOf("s3://b/k.csv");
  EXPECT_EQ(settings.endpoint_scheme, "https");
  EXPECT_EQ(settings.endpoint_host_port, "s3.example:443");
  EXPECT_EQ(settings.region, "ap-south-1");
}

TEST(ClientSettingsTest, WithoutOverridesTheProvidersChainsDecide) {
  ScopedEnv s3("AWS_ENDPOINT_URL_S3", nullptr), any("AWS_ENDPOINT_URL", nullptr);
  ScopedEnv region("AWS_REGION", nullptr), fallback("AWS_DEFAULT_REGION", nullptr);
  ScopedEnv emulator("STORAGE_EMULATOR_HOST", nullptr);
  ClientSettings s3_settings = SettingsOf("s3://b/k.csv");
  EXPECT_EQ(s3_settings.endpoint_host_port, "");
  EXPECT_EQ(s3_settings.region, "");
  ClientSettings gcs = SettingsOf("gs://b/k.csv");
  EXPECT_EQ(gcs.endpoint_host_port, "");
  EXPECT_FALSE(gcs.anonymous);
}

TEST(ClientSettingsTest, AGcsEmulatorIsReachedAnonymously) {
  ScopedEnv emulator("STORAGE_EMULATOR_HOST", "http://127.0.0.1:4443");
  ClientSettings gcs = SettingsOf("gs://b/k.csv");
  EXPECT_EQ(gcs.endpoint_scheme, "http");
  EXPECT_EQ(gcs.endpoint_host_port, "127.0.0.1:4443");
  EXPECT_TRUE(gcs.anonymous);
}

TEST(ClientSettingsTest, ABadEndpointIsAUsageError) {
  auto uri = ParseObjectUri("s3://b/k.csv?endpoint=ftp://x:1");
  ASSERT_TRUE(uri.ok()) << uri.status().message();
  auto settings = ClientSettingsFor(*uri);
  ASSERT_FALSE(settings.ok()) << "ftp:// accepted as an endpoint";
  EXPECT_EQ(settings.status().code(), StatusCode::kUsageError);
}

TEST(ObjectStoreErrorTest, OneLineWithoutTheGcsClientsRetryBookkeeping) {
  const ObjectUri uri = *ParseObjectUri("gs://b/k.csv");
  Status error = ObjectStoreError(
      uri, arrow::Status::IOError("google::cloud::Status(UNKNOWN: Permanent error, with a last message of\n"
                                  "Cannot open credentials file /k.json error_info={reason=UNKNOWN, "
                                  "metadata={gcloud-cpp.retry.original-message=Cannot open credentials file}})"));
  EXPECT_EQ(error.code(), StatusCode::kInputError);
  EXPECT_EQ(error.message(),
            "gs://b/k.csv: google::cloud::Status(UNKNOWN: Permanent error, with a last message of "
            "Cannot open credentials file /k.json");
}

}  // namespace
}  // namespace griffin
