// `griffin sql -r rules.yaml --dialect postgresql --table t`: prints the SQL
// that `griffin validate --mode pushdown` runs for a rule file, without a
// database (each column taken to be stored as its rule's type). Exit 0, or 2
// for a bad rule file or option.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace griffin {

struct SqlArgs {
  std::string rules_path;
  std::string dialect = "postgresql";
  std::string table;
  std::string query;
  std::string where;
  int64_t max_violations = 100;
};

CLI::App* AddSqlCommand(CLI::App& app, SqlArgs* args);
int RunSqlCommand(const SqlArgs& args);

}  // namespace griffin
