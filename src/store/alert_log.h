// The run store's record of alerts (alerts/alert_dispatcher.h; store
// migration 9, table alert_deliveries): every alert sent, failed or
// suppressed, and whether the same alert was delivered recently. A
// connection of its own beside the RunStore (same URI forms); not
// thread-safe: one per thread.
//
//   ASSIGN_OR_RETURN(auto log, AlertLog::Open(".griffin/griffin.db"));
//   RETURN_IF_ERROR(log->Record(record));
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "store/sql_connection.h"
#include "util/status.h"

namespace griffin {

struct AlertDeliveryRecord {
  std::string delivery_id;       // random hex
  std::string run_id, dataset;
  std::string url;               // redacted (util/url_redact.h), or "$VAR" for url_env
  std::string format;            // json | slack
  std::string events;            // "failure,drift"
  std::string dedup_key;         // sha256 hex (alerts/alert_message.h AlertDedupKey); '' when none
  std::string status;            // delivered | failed | suppressed
  int64_t attempts = 0;
  int64_t http_status = 0;       // the last answer's; 0: none
  std::string error;             // why it failed or was suppressed; '' when delivered
  std::string created_at, finished_at;  // ISO 8601 UTC
};

// Which records AlertLog::List returns: every field that is not empty must
// match exactly.
struct AlertListFilter {
  std::string dataset, run_id, status;
  int limit = 50;                // at most this many, newest first
};

class AlertLog {
 public:
  // `uri`: OpenRunStore's forms; the store is migrated as OpenRunStore does.
  static Result<std::unique_ptr<AlertLog>> Open(const std::string& uri);

  Status Record(const AlertDeliveryRecord& record);
  // Whether an alert with `dedup_key` was delivered at or after `since` (ISO 8601 UTC).
  Result<bool> DeliveredSince(const std::string& dedup_key, const std::string& since);
  // A run's records, oldest first.
  Result<std::vector<AlertDeliveryRecord>> ForRun(const std::string& run_id);
  // The records `filter` matches, newest first (by created_at, to the second;
  // records of the same second in descending id order).
  Result<std::vector<AlertDeliveryRecord>> List(const AlertListFilter& filter);
  // The store it reads, as errors name it (a PostgreSQL URI's password masked).
  std::string Describe() const { return conn_->Describe(); }

 private:
  explicit AlertLog(std::unique_ptr<SqlConnection> conn) : conn_(std::move(conn)) {}
  std::unique_ptr<SqlConnection> conn_;
};

}  // namespace griffin
