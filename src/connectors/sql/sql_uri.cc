#include "connectors/sql/sql_uri.h"

#include <vector>

#include "io/source_registry.h"

namespace griffin::sql {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

Result<std::string> PercentDecoded(const std::string& text, const std::string& display) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    const int high = i + 2 < text.size() ? HexValue(text[i + 1]) : -1;
    const int low = high >= 0 ? HexValue(text[i + 2]) : -1;
    if (low < 0) return Status::UsageError(display + ": bad percent-escape in '" + text + "'");
    out += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return out;
}

}  // namespace

std::optional<SqlEngine> SqlEngineForScheme(const std::string& scheme) {
  if (scheme == "sqlite") return SqlEngine::kSqlite;
  if (scheme == "duckdb") return SqlEngine::kDuckdb;
  if (scheme == "postgresql" || scheme == "postgres") return SqlEngine::kPostgresql;
  return std::nullopt;
}

Result<SqlTarget> ParseSqlUri(const std::string& uri) {
  SqlTarget target;
  target.display = RedactUri(uri);
  const std::optional<std::string> scheme = UriScheme(uri);
  const std::optional<SqlEngine> engine = scheme ? SqlEngineForScheme(*scheme) : std::nullopt;
  if (!engine) return Status::UsageError(target.display + ": not a sqlite, duckdb or postgresql URI");
  target.engine = *engine;
  const size_t rest = uri.find("://") + 3;
  const size_t query_at = uri.find('?', rest);
  const std::string location = uri.substr(rest, query_at == std::string::npos ? std::string::npos : query_at - rest);
  std::vector<std::string> passed;  // parameters other than ours (PostgreSQL: libpq's)
  if (query_at != std::string::npos) {
    const std::string query = uri.substr(query_at + 1);
    for (size_t start = 0; start <= query.size();) {
      size_t end = query.find('&', start);
      if (end == std::string::npos) end = query.size();
      const std::string param = query.substr(start, end - start);
      start = end + 1;
      if (param.empty()) continue;
      const size_t equals = param.find('=');
      const std::string key = param.substr(0, equals);
      if (key == "table") {
        ASSIGN_OR_RETURN(std::string table,
                         PercentDecoded(equals == std::string::npos ? "" : param.substr(equals + 1), target.display));
        if (table.empty()) return Status::UsageError(target.display + ": table= is empty");
        const size_t dot = table.find('.');
        if (dot != std::string::npos) {
          target.schema = table.substr(0, dot);
          table = table.substr(dot + 1);
          if (target.schema->empty() || table.empty())
            return Status::UsageError(target.display + ": table= expects name or schema.name");
        }
        target.table = table;
      } else if (target.engine == SqlEngine::kPostgresql) {
        passed.push_back(param);
      } else {
        return Status::UsageError(target.display + ": unknown parameter '" + key + "' (expected table=)");
      }
    }
  }
  if (target.engine == SqlEngine::kPostgresql) {
    target.connection_uri = "postgresql://" + location;
    for (size_t i = 0; i < passed.size(); ++i) target.connection_uri += (i == 0 ? "?" : "&") + passed[i];
  } else {
    ASSIGN_OR_RETURN(target.file, PercentDecoded(location, target.display));
    if (target.file.empty()) return Status::UsageError(target.display + ": no database file (sqlite:///path/file.db)");
  }
  return target;
}

std::string QuoteIdentifier(const std::string& name) {
  std::string out = "\"";
  for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string QuotedTableName(const SqlTarget& target) {
  return (target.schema ? QuoteIdentifier(*target.schema) + "." : std::string()) + QuoteIdentifier(target.table);
}

}  // namespace griffin::sql
