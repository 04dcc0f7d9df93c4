#include "connectors/kafka/stream_headers.h"

#include <gtest/gtest.h>

namespace griffin::kafka {
namespace {

TEST(StreamHeaders, ErrorsAreAJsonArray) {
  EXPECT_EQ(ErrorsHeader({}), "[]");
  EXPECT_EQ(ErrorsHeader({{"amount.min", "amount -2 is below 0"}, {"malformed", "bad \"quote\"\n"}}),
            R"([{"check": "amount.min", "message": "amount -2 is below 0"}, )"
            R"({"check": "malformed", "message": "bad \"quote\"\n"}])");
}

TEST(StreamHeaders, SourceNamesTopicPartitionOffset) {
  EXPECT_EQ(SourceHeader("raw", 3, 42), R"({"topic": "raw", "partition": 3, "offset": 42})");
}

TEST(StreamHeaders, VersionMetadataRoundTrips) {
  EXPECT_EQ(ParseVersionMetadata(VersionMetadata(1)), 1);
  EXPECT_EQ(ParseVersionMetadata(VersionMetadata(9007199254740993)), 9007199254740993);
  EXPECT_EQ(ParseVersionMetadata(""), std::nullopt);
  EXPECT_EQ(ParseVersionMetadata("griffin-next-version="), std::nullopt);
  EXPECT_EQ(ParseVersionMetadata("griffin-next-version=12x"), std::nullopt);
  EXPECT_EQ(ParseVersionMetadata("griffin-next-version=0"), std::nullopt);
  EXPECT_EQ(ParseVersionMetadata("other"), std::nullopt);
}

}  // namespace
}  // namespace griffin::kafka
