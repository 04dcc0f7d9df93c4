#include "connectors/kafka/kafka_client.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace griffin::kafka {
namespace {

std::string WriteTemp(const std::string& text) {
  char path[] = "/tmp/griffin_kafka_client_test.XXXXXX";
  int fd = mkstemp(path);
  EXPECT_GE(fd, 0);
  close(fd);
  std::ofstream(path) << text;
  return path;
}

TEST(KafkaClientSettings, ReadsKeyValueLinesWithOrigins) {
  std::string path = WriteTemp("# TLS\n\n  security.protocol = PLAINTEXT \nlinger.ms=5\n");
  auto settings = ReadClientSettingsFile(path);
  ASSERT_TRUE(settings.ok()) << settings.status().message();
  ASSERT_EQ(settings->size(), 2u);
  EXPECT_EQ((*settings)[0].key, "security.protocol");
  EXPECT_EQ((*settings)[0].value, "PLAINTEXT");
  EXPECT_EQ((*settings)[0].origin, path + ":3");
  EXPECT_EQ((*settings)[1].origin, path + ":4");
  std::remove(path.c_str());
}

TEST(KafkaClientSettings, LineWithoutEqualsNamesFileAndLine) {
  std::string path = WriteTemp("linger.ms=5\nnot a setting\n");
  auto settings = ReadClientSettingsFile(path);
  ASSERT_FALSE(settings.ok());
  EXPECT_EQ(settings.status().code(), StatusCode::kUsageError);
  EXPECT_NE(settings.status().message().find(path + ":2: expected key=value"), std::string::npos)
      << settings.status().message();
  std::remove(path.c_str());
}

TEST(KafkaClientSettings, MissingFileIsUsageError) {
  auto settings = ReadClientSettingsFile("/nonexistent/client.properties");
  ASSERT_FALSE(settings.ok());
  EXPECT_EQ(settings.status().code(), StatusCode::kUsageError);
}

TEST(KafkaClient, UnknownKeyNamesKeyAndOrigin) {
  auto client = NewKafkaClient(KafkaRole::kProducer, {{"bootstrap.servers", "127.0.0.1:1", ""},
                                                      {"no.such.setting", "1", "c.properties:7"}});
  ASSERT_FALSE(client.ok());
  EXPECT_EQ(client.status().code(), StatusCode::kUsageError);
  EXPECT_NE(client.status().message().find("c.properties:7: Kafka client setting 'no.such.setting'"),
            std::string::npos)
      << client.status().message();
}

TEST(KafkaClient, BadValueIsUsageError) {
  auto client = NewKafkaClient(KafkaRole::kConsumer, {{"session.timeout.ms", "soon", ""}});
  ASSERT_FALSE(client.ok());
  EXPECT_NE(client.status().message().find("'session.timeout.ms'"), std::string::npos);
}

TEST(KafkaClient, BuildsProducerAndConsumer) {
  EXPECT_TRUE(NewKafkaClient(KafkaRole::kProducer, {{"bootstrap.servers", "127.0.0.1:1", ""}}).ok());
  EXPECT_TRUE(NewKafkaClient(KafkaRole::kConsumer, {{"bootstrap.servers", "127.0.0.1:1", ""},
                                                    {"group.id", "g", ""}}).ok());
}

}  // namespace
}  // namespace griffin::kafka
