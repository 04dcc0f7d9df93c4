// The alert log on SQLite and on PostgreSQL (a real server; store_test_util.h).
#include "store/alert_log.h"

#include <gtest/gtest.h>

#include "store/store_test_util.h"

namespace griffin::store_test {
namespace {

class AlertLogTest : public StoreBackendTest {
 protected:
  std::unique_ptr<AlertLog> OpenLog() {
    auto log = AlertLog::Open(scratch_.uri());
    EXPECT_TRUE(log.ok()) << log.status().message();
    return log.ok() ? std::move(*log) : nullptr;
  }
};

AlertDeliveryRecord Delivery(const std::string& id, const std::string& status, const std::string& finished_at) {
  AlertDeliveryRecord r;
  r.delivery_id = id;
  r.run_id = "run-1";
  r.dataset = "orders";
  r.url = "https://hooks.example.com/services/…";
  r.format = "slack";
  r.events = "failure,drift";
  r.dedup_key = "key-a";
  r.status = status;
  r.attempts = 3;
  r.http_status = status == "delivered" ? 200 : 503;
  r.created_at = finished_at;
  r.finished_at = finished_at;
  return r;
}

TEST_P(AlertLogTest, RecordsEveryOutcomeAndFindsRecentDeliveries) {
  auto log = OpenLog();
  ASSERT_NE(log, nullptr);
  ASSERT_TRUE(log->Record(Delivery("d1", "failed", "2026-12-05T08:00:00Z")).ok());
  auto seen = log->DeliveredSince("key-a", "2026-12-05T07:00:00Z");
  ASSERT_TRUE(seen.ok()) << seen.status().message();
  EXPECT_FALSE(*seen);  // failed is not delivered
  ASSERT_TRUE(log->Record(Delivery("d2", "delivered", "2026-12-05T08:01:00Z")).ok());
  EXPECT_TRUE(*log->DeliveredSince("key-a", "2026-12-05T08:00:30Z"));
  EXPECT_FALSE(*log->DeliveredSince("key-a", "2026-12-05T08:02:00Z"));
  EXPECT_FALSE(*log->DeliveredSince("key-b", "2026-12-05T07:00:00Z"));
  auto records = log->ForRun("run-1");
  ASSERT_TRUE(records.ok()) << records.status().message();
  ASSERT_EQ(records->size(), 2u);
  EXPECT_EQ((*records)[0].delivery_id, "d1");
  EXPECT_EQ((*records)[1].status, "delivered");
  EXPECT_EQ((*records)[1].attempts, 3);
  EXPECT_EQ((*records)[1].http_status, 200);
  EXPECT_EQ((*records)[1].events, "failure,drift");
  EXPECT_FALSE(log->Record(Delivery("d3", "lost", "2026-12-05T08:03:00Z")).ok());  // the CHECK constraint
  EXPECT_FALSE(AlertLog::Open("foo.txt").ok());
}

TEST_P(AlertLogTest, ListsNewestFirstMatchingEveryFilter) {
  auto log = OpenLog();
  ASSERT_NE(log, nullptr);
  auto other = Delivery("d2", "failed", "2026-12-05T08:02:00Z");
  other.dataset = "payments";
  other.run_id = "run-2";
  for (const AlertDeliveryRecord& r : {Delivery("d1", "delivered", "2026-12-05T08:01:00Z"), other,
                                       Delivery("d3", "suppressed", "2026-12-05T08:03:00Z")})
    ASSERT_TRUE(log->Record(r).ok());
  const auto ids = [&](const AlertListFilter& filter) {
    std::vector<std::string> listed;
    auto records = log->List(filter);
    EXPECT_TRUE(records.ok()) << records.status().message();
    if (records.ok())
      for (const AlertDeliveryRecord& r : *records) listed.push_back(r.delivery_id);
    return listed;
  };
  const auto filter = [](std::string dataset, std::string run_id, std::string status, int limit = 50) {
    AlertListFilter f;
    f.dataset = std::move(dataset);
    f.run_id = std::move(run_id);
    f.status = std::move(status);
    f.limit = limit;
    return f;
  };
  using Ids = std::vector<std::string>;
  EXPECT_EQ(ids(filter("", "", "")), (Ids{"d3", "d2", "d1"}));
  EXPECT_EQ(ids(filter("", "", "", 2)), (Ids{"d3", "d2"}));
  EXPECT_EQ(ids(filter("orders", "", "")), (Ids{"d3", "d1"}));
  EXPECT_EQ(ids(filter("", "run-2", "")), (Ids{"d2"}));
  EXPECT_EQ(ids(filter("", "", "delivered")), (Ids{"d1"}));
  EXPECT_EQ(ids(filter("orders", "", "failed")), Ids{});
  auto records = log->List(filter("", "run-2", ""));
  ASSERT_TRUE(records.ok() && records->size() == 1);
  const AlertDeliveryRecord& r = records->front();
  EXPECT_EQ(r.dataset, "payments");
  EXPECT_EQ(r.url, "https://hooks.example.com/services/…");
  EXPECT_EQ(r.format, "slack");
  EXPECT_EQ(r.attempts, 3);
  EXPECT_EQ(r.http_status, 503);
  EXPECT_EQ(r.finished_at, "2026-12-05T08:02:00Z");
  EXPECT_NE(log->Describe().find(GetParam() == Backend::kSqlite ? "sqlite:" : "postgres"), std::string::npos)
      << log->Describe();
}

INSTANTIATE_TEST_SUITE_P(Backends, AlertLogTest, ::testing::Values(Backend::kSqlite, Backend::kPostgres), BackendName);

}  // namespace
}  // namespace griffin::store_test
