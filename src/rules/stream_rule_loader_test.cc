// The `stream:` section through LoadRuleText.
#include "rules/stream_rule_loader.h"

#include <gtest/gtest.h>

#include "rules/rule_loader_test_util.h"

namespace griffin {
namespace {

using testing::BodyError;
using testing::LoadBody;

TEST(StreamRules, AWindowIsARecordCountOrADuration) {
  Result<RuleSet> count = LoadBody("stream:\n  window: 5000\n");
  ASSERT_TRUE(count.ok()) << count.status().message();
  ASSERT_TRUE(count->stream.has_value());
  EXPECT_EQ(count->stream->window_records, 5000);
  EXPECT_EQ(count->stream->window_ms, 0);
  for (auto [text, ms] : {std::pair{"500ms", 500}, std::pair{"30s", 30000}, std::pair{"10m", 600000},
                          std::pair{"2h", 7200000}}) {
    Result<RuleSet> duration = LoadBody(std::string("stream:\n  window: ") + text + "\n");
    ASSERT_TRUE(duration.ok()) << duration.status().message();
    EXPECT_EQ(duration->stream->window_ms, ms) << text;
    EXPECT_EQ(duration->stream->window_records, 0) << text;
  }
  EXPECT_FALSE(LoadBody("columns:\n  a: {type: int64}\n")->stream.has_value());
}

TEST(StreamRules, BadWindowsNameTheLineAndKey) {
  EXPECT_EQ(BodyError("stream:\n  window: 10 minutes\n"),
            "r.yaml:4: stream.window: expected a number of records (5000) or a duration (500ms, 30s, 10m, 1h), "
            "found '10 minutes'");
  EXPECT_EQ(BodyError("stream:\n  window: 25h\n"), "r.yaml:4: stream.window: must be from 1ms to 24h, found '25h'");
  EXPECT_EQ(BodyError("stream:\n  window: 0s\n"), "r.yaml:4: stream.window: must be from 1ms to 24h, found '0s'");
  EXPECT_NE(BodyError("stream:\n  window: 0\n").find("r.yaml:4: stream.window:"), std::string::npos);
  EXPECT_NE(BodyError("stream:\n  window: -5\n").find("r.yaml:4: stream.window:"), std::string::npos);
  EXPECT_NE(BodyError("stream:\n  windw: 5\n").find("r.yaml:4: stream.windw: unknown key"), std::string::npos);
  EXPECT_NE(BodyError("stream: 5\n").find("r.yaml:3: stream:"), std::string::npos);
}

}  // namespace
}  // namespace griffin
