#include "server/api_keys.h"

#include <gtest/gtest.h>

#include "util/sha256.h"

namespace griffin::server {
namespace {

ApiKey Key(const std::string& id, const std::string& token, std::optional<std::vector<std::string>> datasets = {}) {
  ApiKey key;
  key.id = id;
  key.digest = Sha256(token);
  key.datasets = std::move(datasets);
  return key;
}

TEST(KeyRingTest, FindsTheKeyOfAToken) {
  KeyRing ring({Key("a", "token-a"), Key("b", "token-b", std::vector<std::string>{"steps"})});
  ASSERT_NE(ring.Find("token-a"), nullptr);
  EXPECT_EQ(ring.Find("token-a")->id, "a");
  EXPECT_EQ(ring.Find("token-b")->id, "b");
  EXPECT_EQ(ring.Find("token-c"), nullptr);
  EXPECT_EQ(ring.Find(""), nullptr);
  EXPECT_EQ(ring.Find("token-a "), nullptr);
  EXPECT_FALSE(ring.empty());
  EXPECT_TRUE(KeyRing({}).empty());
}

TEST(KeyRingTest, DatasetLists) {
  EXPECT_TRUE(KeyAllows(Key("a", "t"), "anything"));
  ApiKey limited = Key("b", "t", std::vector<std::string>{"steps", "tx"});
  EXPECT_TRUE(KeyAllows(limited, "tx"));
  EXPECT_FALSE(KeyAllows(limited, "other"));
  EXPECT_FALSE(KeyAllows(Key("c", "t", std::vector<std::string>{}), "tx"));
}

TEST(KeyRingTest, BearerTokens) {
  EXPECT_EQ(BearerToken("Bearer abc"), "abc");
  EXPECT_EQ(BearerToken("  bearer   abc  "), "abc");
  EXPECT_EQ(BearerToken("BEARER x.y-z"), "x.y-z");
  EXPECT_EQ(BearerToken("Basic abc"), std::nullopt);
  EXPECT_EQ(BearerToken("Bearer"), std::nullopt);
  EXPECT_EQ(BearerToken("Bearer   "), std::nullopt);
  EXPECT_EQ(BearerToken("Bearerabc"), std::nullopt);
  EXPECT_EQ(BearerToken(""), std::nullopt);
}

}  // namespace
}  // namespace griffin::server
