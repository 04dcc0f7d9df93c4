#include "store/run_store.h"

#include <string_view>

#include "store/postgres_store.h"
#include "store/sqlite_store.h"

namespace griffin {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

Status CheckRunStoreUri(const std::string& uri) {
  if (StartsWith(uri, "postgresql://") || StartsWith(uri, "postgres://") || StartsWith(uri, "sqlite:") ||
      EndsWith(uri, ".db") || EndsWith(uri, ".sqlite") || EndsWith(uri, ".sqlite3"))
    return Status::OK();
  return Status::UsageError("--store " + uri +
                            ": expected a .db, .sqlite or .sqlite3 path, sqlite:PATH, or a"
                            " postgresql:// URI");
}

Result<std::unique_ptr<RunStore>> OpenRunStore(const std::string& uri) {
  RETURN_IF_ERROR(CheckRunStoreUri(uri));
  if (StartsWith(uri, "postgresql://") || StartsWith(uri, "postgres://")) {
    return OpenPostgresStore(uri);
  }
  if (StartsWith(uri, "sqlite:")) return OpenSqliteStore(uri.substr(7));
  return OpenSqliteStore(uri);
}

std::string DefaultStoreUri() { return ".griffin/griffin.db"; }

}  // namespace griffin
