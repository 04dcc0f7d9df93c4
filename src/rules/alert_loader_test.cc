// `alerts:` in a rule file through LoadRuleText (the serve config reads the
// same section: server/service_config_test.cc).
#include "rules/alert_loader.h"

#include <gtest/gtest.h>

#include "rules/rule_loader_test_util.h"

namespace griffin {
namespace {

using testing::BodyError;
using testing::LoadBody;

TEST(AlertLoader, EveryKey) {
  Result<RuleSet> rules = LoadBody(
      "alerts:\n"
      "  - url: https://hooks.example.com/services/T/B/X\n"
      "    format: slack\n"
      "    on: [failure, anomaly]\n"
      "    min_score_drop: 0.1\n"
      "    timeout_s: 2\n"
      "    retries: 5\n"
      "    backoff_s: 0.5\n"
      "    deadline_s: 30\n"
      "    dedup_s: 0\n"
      "  - url_env: HOOK_URL\n");
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  Result<std::vector<AlertTarget>> alerts = LoadRuleFileAlerts(*rules);
  ASSERT_TRUE(alerts.ok()) << alerts.status().message();
  ASSERT_EQ(alerts->size(), 2u);
  const AlertTarget& slack = (*alerts)[0];
  EXPECT_EQ(slack.url, "https://hooks.example.com/services/T/B/X");
  EXPECT_EQ(slack.format, AlertTarget::Format::kSlack);
  EXPECT_EQ(slack.on, (std::vector<AlertEvent>{AlertEvent::kFailure, AlertEvent::kAnomaly}));
  EXPECT_EQ(slack.min_score_drop, 0.1);
  EXPECT_EQ(slack.timeout_s, 2);
  EXPECT_EQ(slack.retries, 5);
  EXPECT_EQ(slack.backoff_s, 0.5);
  EXPECT_EQ(slack.deadline_s, 30);
  EXPECT_EQ(slack.dedup_s, 0);
  const AlertTarget& generic = (*alerts)[1];
  EXPECT_EQ(generic.url_env, "HOOK_URL");
  EXPECT_EQ(generic.format, AlertTarget::Format::kJson);
  EXPECT_EQ(generic.on.size(), 4u);
  EXPECT_EQ(generic.retries, 3);
  EXPECT_TRUE(LoadRuleFileAlerts(*LoadBody("columns: {a: {}}\n")).value().empty());
}

TEST(AlertLoader, ErrorsNameTheLineButNeverTheUrl) {
  EXPECT_EQ(BodyError("alerts:\n  - url: ftp://u:SECRET@h/x\n"),
            "r.yaml:4: alerts[0].url: expected an http:// or https:// URL");
  EXPECT_EQ(BodyError("alerts:\n  - {format: slack}\n"), "r.yaml:4: alerts[0]: needs either url or url_env");
  EXPECT_EQ(BodyError("alerts:\n  - {url: 'http://h', url_env: X}\n"), "r.yaml:4: alerts[0]: needs either url or url_env");
  EXPECT_EQ(BodyError("alerts:\n  - {url: 'http://h', on: [failure, lateness]}\n"),
            "r.yaml:4: alerts[0].on[1]: unknown event 'lateness' (expected failure, score_drop, drift or anomaly)");
  EXPECT_NE(BodyError("alerts:\n  - {url: 'http://h', format: xml}\n").find("expected json or slack"),
            std::string::npos);
  EXPECT_NE(BodyError("alerts:\n  - {url: 'http://h', retries: 11}\n").find("expected a whole number from 0 to 10"),
            std::string::npos);
  EXPECT_NE(BodyError("alerts:\n  - {url: 'http://h', channel: x}\n").find("unknown key"), std::string::npos);
  EXPECT_NE(BodyError("alerts: {url: 'http://h'}\n").find("r.yaml:3: alerts"), std::string::npos);
}

}  // namespace
}  // namespace griffin
