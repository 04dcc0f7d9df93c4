#include "store/sql_connection.h"

#include <cstdlib>
#include <ctime>

namespace griffin {

Status Exec(SqlConnection& conn, std::string_view sql, const std::vector<SqlParam>& params) {
  Result<std::vector<SqlRow>> rows = conn.Query(sql, params);
  return rows.ok() ? Status::OK() : rows.status();
}

Status InWriteTransaction(SqlConnection& conn, const std::function<Status()>& body) {
  const char* begin = conn.dialect() == SqlDialect::kSqlite ? "BEGIN IMMEDIATE" : "BEGIN";
  RETURN_IF_ERROR(Exec(conn, begin));
  Status status = body();
  if (status.ok()) status = Exec(conn, "COMMIT");
  if (!status.ok()) {
    // The rollback's own error (e.g. no transaction left after a failed
    // COMMIT) adds nothing to the first one.
    (void)Exec(conn, "ROLLBACK");
  }
  return status;
}

int64_t ParseInt(const std::optional<std::string>& text, int64_t fallback) {
  if (!text || text->empty()) return fallback;
  return std::strtoll(text->c_str(), nullptr, 10);
}

double ParseDouble(const std::optional<std::string>& text, double fallback) {
  if (!text || text->empty()) return fallback;
  return std::strtod(text->c_str(), nullptr);
}

bool ParseBool(const std::optional<std::string>& text, bool fallback) {
  if (!text || text->empty()) return fallback;
  const std::string& t = *text;
  return t == "1" || t == "t" || t == "true" || t == "TRUE";
}

std::string OneLine(std::string_view message) {
  std::string out;
  bool pending_space = false;
  for (char c : message) {
    if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    out += c;
  }
  return out;
}

std::string UtcNowIso8601(int64_t offset_seconds) {
  std::time_t now = std::time(nullptr) + offset_seconds;
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace griffin
