#include "store/postgres_store.h"

#include <libpq-fe.h>

#include <cctype>
#include <cstdio>

#include "store/sql_run_store.h"

namespace griffin {
namespace {

// libpq's messages, made one line without the parts the URI already says:
// "connection to server at "h", port 1 failed: Connection refused\n\tIs the
// server running..." -> "connection refused"; "FATAL:  password ..." ->
// "password ...".
std::string CleanDriverMessage(std::string_view raw) {
  std::string_view line = raw.substr(0, raw.find('\n'));
  if (line.rfind("connection to server", 0) == 0) {
    size_t failed = line.find("failed: ");
    if (failed != std::string_view::npos) line.remove_prefix(failed + 8);
  }
  for (std::string_view prefix : {"FATAL:", "ERROR:"}) {
    if (line.rfind(prefix, 0) == 0) line.remove_prefix(prefix.size());
  }
  std::string out = OneLine(line);
  if (out.size() > 1 && std::isupper(static_cast<unsigned char>(out[0])) &&
      std::islower(static_cast<unsigned char>(out[1]))) {
    out[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(out[0])));
  }
  return out.empty() ? "unknown libpq error" : out;
}

std::string ParamText(const SqlParam& p) {
  if (auto* v = std::get_if<int64_t>(&p)) return std::to_string(*v);
  if (auto* d = std::get_if<double>(&p)) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", *d);
    return buf;
  }
  if (auto* s = std::get_if<std::string>(&p)) return *s;
  if (auto* b = std::get_if<bool>(&p)) return *b ? "true" : "false";
  return "";
}

void DropNotice(void*, const char*) {}

class PostgresConnection : public SqlConnection {
 public:
  PostgresConnection(std::string redacted_uri, PGconn* conn)
      : uri_(std::move(redacted_uri)), conn_(conn) {}
  ~PostgresConnection() override { PQfinish(conn_); }
  PostgresConnection(const PostgresConnection&) = delete;
  PostgresConnection& operator=(const PostgresConnection&) = delete;

  SqlDialect dialect() const override { return SqlDialect::kPostgres; }
  std::string Describe() const override { return uri_; }
  Status Error(std::string_view message) const override {
    return Status::StoreError("store " + uri_ + ": " + OneLine(message));
  }

  Result<std::vector<SqlRow>> Query(std::string_view sql,
                                    const std::vector<SqlParam>& params) override {
    std::string text(sql);
    std::vector<std::string> values;
    std::vector<const char*> pointers;
    values.reserve(params.size());
    for (const SqlParam& p : params) values.push_back(ParamText(p));
    for (size_t i = 0; i < params.size(); ++i) {
      bool null = std::holds_alternative<std::monostate>(params[i]);
      pointers.push_back(null ? nullptr : values[i].c_str());
    }
    std::unique_ptr<PGresult, void (*)(PGresult*)> result(
        PQexecParams(conn_, text.c_str(), static_cast<int>(params.size()), nullptr,
                     pointers.data(), nullptr, nullptr, /*resultFormat=text*/ 0),
        PQclear);
    ExecStatusType status = result ? PQresultStatus(result.get()) : PGRES_FATAL_ERROR;
    if (status == PGRES_COMMAND_OK) return std::vector<SqlRow>();
    if (status != PGRES_TUPLES_OK) {
      const char* primary =
          result ? PQresultErrorField(result.get(), PG_DIAG_MESSAGE_PRIMARY) : nullptr;
      return Error(primary ? std::string(primary) : CleanDriverMessage(PQerrorMessage(conn_)));
    }
    int n_rows = PQntuples(result.get());
    int n_cols = PQnfields(result.get());
    std::vector<SqlRow> rows(n_rows);
    for (int r = 0; r < n_rows; ++r) {
      rows[r].reserve(n_cols);
      for (int c = 0; c < n_cols; ++c) {
        if (PQgetisnull(result.get(), r, c)) {
          rows[r].push_back(std::nullopt);
        } else {
          rows[r].emplace_back(std::string(PQgetvalue(result.get(), r, c),
                                           PQgetlength(result.get(), r, c)));
        }
      }
    }
    return rows;
  }

 private:
  std::string uri_;
  PGconn* conn_;
};

}  // namespace

std::string RedactPostgresUri(const std::string& uri) {
  size_t scheme_end = uri.find("://");
  if (scheme_end == std::string::npos) return uri;
  std::string out = uri.substr(0, scheme_end + 3);
  size_t pos = scheme_end + 3;
  // Like libpq: user info is everything before an '@' met before any '/'.
  size_t stop = uri.find_first_of("@/", pos);
  if (stop != std::string::npos && uri[stop] == '@') {
    std::string user_info = uri.substr(pos, stop - pos);
    out += user_info.substr(0, user_info.find(':'));
    pos = stop;  // keeps the '@'
  }
  size_t query = uri.find('?', pos);
  out += uri.substr(pos, query == std::string::npos ? std::string::npos : query - pos);
  if (query == std::string::npos) return out;
  std::string kept;
  size_t start = query + 1;
  while (start <= uri.size()) {
    size_t amp = uri.find('&', start);
    std::string param = uri.substr(start, amp == std::string::npos ? std::string::npos : amp - start);
    if (!param.empty() && param.rfind("password=", 0) != 0 && param != "password") {
      kept += (kept.empty() ? "" : "&") + param;
    }
    if (amp == std::string::npos) break;
    start = amp + 1;
  }
  return kept.empty() ? out : out + "?" + kept;
}

Result<std::unique_ptr<SqlConnection>> ConnectPostgres(const std::string& uri) {
  std::string redacted = RedactPostgresUri(uri);
  std::string timeout = std::to_string(kPostgresConnectTimeoutSeconds);
  // Later keywords override earlier ones: the URI (expanded from dbname)
  // comes last so that its own settings win over griffin's defaults.
  const char* keywords[] = {"connect_timeout", "application_name", "client_encoding", "dbname",
                            nullptr};
  const char* values[] = {timeout.c_str(), "griffin", "UTF8", uri.c_str(), nullptr};
  PGconn* conn = PQconnectdbParams(keywords, values, /*expand_dbname=*/1);
  if (conn == nullptr) {
    return Status::StoreError("store " + redacted + ": out of memory connecting");
  }
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string message = CleanDriverMessage(PQerrorMessage(conn));
    PQfinish(conn);
    return Status::StoreError("store " + redacted + ": " + message);
  }
  PQsetNoticeProcessor(conn, DropNotice, nullptr);
  return std::unique_ptr<SqlConnection>(std::make_unique<PostgresConnection>(redacted, conn));
}

Result<std::unique_ptr<RunStore>> OpenPostgresStore(const std::string& uri, int migrate_to) {
  ASSIGN_OR_RETURN(std::unique_ptr<SqlConnection> conn, ConnectPostgres(uri));
  RETURN_IF_ERROR(Migrate(*conn, migrate_to));
  return std::unique_ptr<RunStore>(std::make_unique<SqlRunStore>(std::move(conn)));
}

}  // namespace griffin
