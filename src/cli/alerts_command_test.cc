#include "cli/alerts_command.h"

#include <gtest/gtest.h>
#include <simdjson.h>

namespace griffin {
namespace {

AlertDeliveryRecord Record(const std::string& id, const std::string& status, int64_t http, const std::string& error) {
  AlertDeliveryRecord r;
  r.delivery_id = id;
  r.run_id = "3f2a1b4c-0000-4000-8000-000000000001";
  r.dataset = "orders_eu";
  r.url = "https://hooks.example.com/services/…";
  r.format = "slack";
  r.events = "failure,drift";
  r.dedup_key = "abc";
  r.status = status;
  r.attempts = 4;
  r.http_status = http;
  r.error = error;
  r.created_at = "2026-12-05T08:01:00Z";
  r.finished_at = "2026-12-05T08:01:02Z";
  return r;
}

TEST(AlertsCommand, TextHasOneLinePerRecordAndTheErrorBelowIt) {
  const std::string text = AlertDeliveriesText(
      {Record("a", "failed", 0, "Couldn't connect to server"), Record("b", "delivered", 200, "")});
  EXPECT_EQ(text,
            "CREATED               STATUS      TRIES  HTTP  DATASET    RUN       EVENTS         FORMAT  URL\n"
            "2026-12-05T08:01:00Z  failed          4     -  orders_eu  3f2a1b4c  failure,drift  slack   "
            "https://hooks.example.com/services/…\n"
            "                      Couldn't connect to server\n"
            "2026-12-05T08:01:00Z  delivered       4   200  orders_eu  3f2a1b4c  failure,drift  slack   "
            "https://hooks.example.com/services/…\n");
}

TEST(AlertsCommand, JsonHasEveryFieldAndEventsAsAList) {
  const std::string json = AlertDeliveriesJson({Record("a", "failed", 0, "down \"hard\""), Record("b", "delivered", 200, "")},
                                               "sqlite:s.db");
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_FALSE(parser.parse(json).get(doc)) << json;
  EXPECT_EQ(std::string_view(doc["store"]), "sqlite:s.db");
  simdjson::dom::array deliveries = doc["deliveries"];
  ASSERT_EQ(deliveries.size(), 2u);
  simdjson::dom::element first = deliveries.at(0);
  EXPECT_EQ(std::string_view(first["error"]), "down \"hard\"");
  EXPECT_TRUE(first["http_status"].is_null());
  EXPECT_EQ(int64_t(deliveries.at(1)["http_status"]), 200);
  EXPECT_EQ(int64_t(first["attempts"]), 4);
  simdjson::dom::array events = first["events"];
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(std::string_view(events.at(1)), "drift");
  for (const char* key : {"delivery_id", "run_id", "dataset", "status", "url", "format", "dedup_key", "created_at",
                          "finished_at"})
    EXPECT_FALSE(first[key].error()) << key;
  EXPECT_EQ(AlertDeliveriesJson({}, "x"), "{\"store\": \"x\", \"deliveries\": []}\n");
}

}  // namespace
}  // namespace griffin
