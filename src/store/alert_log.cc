#include "store/alert_log.h"

#include "store/migrations.h"
#include "store/postgres_store.h"
#include "store/run_store.h"
#include "store/sqlite_store.h"

namespace griffin {

Result<std::unique_ptr<AlertLog>> AlertLog::Open(const std::string& uri) {
  RETURN_IF_ERROR(CheckRunStoreUri(uri));
  const bool postgres = uri.rfind("postgresql://", 0) == 0 || uri.rfind("postgres://", 0) == 0;
  ASSIGN_OR_RETURN(std::unique_ptr<SqlConnection> conn,
                   postgres ? ConnectPostgres(uri) : ConnectSqlite(uri.rfind("sqlite:", 0) == 0 ? uri.substr(7) : uri));
  RETURN_IF_ERROR(Migrate(*conn));
  return std::unique_ptr<AlertLog>(new AlertLog(std::move(conn)));
}

Status AlertLog::Record(const AlertDeliveryRecord& r) {
  const auto text = [](const std::string& s) { return SqlParam(s); };
  return Exec(*conn_,
              "INSERT INTO alert_deliveries (delivery_id, run_id, dataset, url, format, events, dedup_key, status,"
              " attempts, http_status, error, created_at, finished_at)"
              " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
              {text(r.delivery_id), text(r.run_id), text(r.dataset), text(r.url), text(r.format), text(r.events),
               text(r.dedup_key), text(r.status), SqlParam(r.attempts), SqlParam(r.http_status), text(r.error),
               text(r.created_at), text(r.finished_at)});
}

Result<bool> AlertLog::DeliveredSince(const std::string& dedup_key, const std::string& since) {
  ASSIGN_OR_RETURN(auto rows, conn_->Query("SELECT COUNT(*) FROM alert_deliveries WHERE dedup_key = $1"
                                           " AND status = 'delivered' AND finished_at >= $2",
                                           {SqlParam(dedup_key), SqlParam(since)}));
  return !rows.empty() && ParseInt(rows[0][0]) > 0;
}

namespace {

constexpr const char* kColumns =
    "SELECT delivery_id, run_id, dataset, url, format, events, dedup_key, status, attempts, http_status, error,"
    " created_at, finished_at FROM alert_deliveries";

std::vector<AlertDeliveryRecord> Records(const std::vector<SqlRow>& rows) {
  std::vector<AlertDeliveryRecord> records;
  for (const SqlRow& row : rows) {
    AlertDeliveryRecord r;
    r.delivery_id = row[0].value_or("");
    r.run_id = row[1].value_or("");
    r.dataset = row[2].value_or("");
    r.url = row[3].value_or("");
    r.format = row[4].value_or("");
    r.events = row[5].value_or("");
    r.dedup_key = row[6].value_or("");
    r.status = row[7].value_or("");
    r.attempts = ParseInt(row[8]);
    r.http_status = ParseInt(row[9]);
    r.error = row[10].value_or("");
    r.created_at = row[11].value_or("");
    r.finished_at = row[12].value_or("");
    records.push_back(std::move(r));
  }
  return records;
}

}  // namespace

Result<std::vector<AlertDeliveryRecord>> AlertLog::ForRun(const std::string& run_id) {
  ASSIGN_OR_RETURN(auto rows, conn_->Query(std::string(kColumns) + " WHERE run_id = $1 ORDER BY created_at, delivery_id",
                                           {SqlParam(run_id)}));
  return Records(rows);
}

Result<std::vector<AlertDeliveryRecord>> AlertLog::List(const AlertListFilter& filter) {
  std::string sql = kColumns;
  std::vector<SqlParam> params;
  for (const auto& [column, value] : {std::pair<const char*, const std::string*>{"dataset", &filter.dataset},
                                      {"run_id", &filter.run_id}, {"status", &filter.status}}) {
    if (value->empty()) continue;
    params.emplace_back(*value);
    sql += std::string(params.size() == 1 ? " WHERE " : " AND ") + column + " = $" + std::to_string(params.size());
  }
  params.emplace_back(static_cast<int64_t>(filter.limit));
  sql += " ORDER BY created_at DESC, delivery_id DESC LIMIT $" + std::to_string(params.size());
  ASSIGN_OR_RETURN(auto rows, conn_->Query(sql, params));
  return Records(rows);
}

}  // namespace griffin
