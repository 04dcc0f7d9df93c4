#include "connectors/kafka/kafka_uri.h"

#include <gtest/gtest.h>

namespace griffin::kafka {
namespace {

TEST(KafkaUri, ParsesHostsTopicAndParams) {
  auto uri = ParseKafkaUri("kafka://a:9092,b:9093/clean.v1?group=trainer&x=1");
  ASSERT_TRUE(uri.ok()) << uri.status().message();
  EXPECT_EQ(uri->bootstrap, "a:9092,b:9093");
  EXPECT_EQ(uri->topic, "clean.v1");
  EXPECT_EQ(uri->params.at("group"), "trainer");
  EXPECT_EQ(uri->params.at("x"), "1");
}

TEST(KafkaUri, RejectsWhatKafkaWouldNot) {
  for (const char* text : {"http://a:1/t", "kafka://a:1", "kafka://a:1/", "kafka://a/t", "kafka://:1/t",
                           "kafka://a:1/t/x", "kafka://a:1/t?group", "kafka://a:x/t", "kafka:///t"}) {
    auto uri = ParseKafkaUri(text);
    ASSERT_FALSE(uri.ok()) << text;
    EXPECT_EQ(uri.status().code(), StatusCode::kUsageError);
    EXPECT_EQ(uri.status().message().rfind(text, 0), 0u) << uri.status().message();
  }
  EXPECT_FALSE(ParseKafkaUri("kafka://a:1/" + std::string(250, 't')).ok());
  EXPECT_TRUE(ParseKafkaUri("kafka://a:1/" + std::string(249, 't')).ok());
}

}  // namespace
}  // namespace griffin::kafka
