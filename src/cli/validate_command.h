// `griffin validate`: the command of cli-and-report-v1. Registers its options
// on a CLI11 app and runs; returns the process exit status (0 passed, 1
// failed checks, 2 rule file / command line, 3 unreadable input).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "report/report.h"

namespace CLI {
class App;
}

namespace griffin {

struct ValidateArgs {
  std::string rules_path;
  std::vector<std::string> inputs;
  std::string format = "text";
  int64_t max_violations = kDefaultMaxViolations;
  std::string quarantine_path, clean_path;
  std::string html_path;  // --html: the run's HTML page
  int threads = 0;
  bool no_store = false;
  std::string store_uri;
  int64_t batch_rows = 65536;
  std::string input_format;
  std::string delimiter;
  bool no_header = false;
  std::vector<std::string> null_values;
  bool no_progress = false;
  bool tag_version = false;
  std::string where;  // --where: overrides source.where
  std::string query;  // --query: a database source reads its result instead of a table
  std::string memory_limit = "512MB";  // --memory-limit: unique/distinct state before it spills
  bool explain = false;                // --explain: print the plan, read nothing
  std::string tmp_dir;                 // --tmp-dir: where spills go (default $TMPDIR, else /tmp)
  std::string engine = "local";     // --engine: local (this process) or spark (spark_submit.h)
  std::string master;               // --master: the Spark master URL (--engine spark)
  std::vector<std::string> keys;    // --key: columns that order rows on Spark (griffin.spark's key=)
  std::string mode;   // --mode scan|pushdown (database sources); empty: source.mode, else scan
  std::string store_profiles = "drift";  // --store-profiles drift|all: the columns a recorded run's profile holds
  std::string parquet_compression;       // --parquet-compression: Parquet outputs' codec; empty: snappy
};

// Adds the `validate` subcommand to `app`, filling `args` when parsed.
CLI::App* AddValidateCommand(CLI::App& app, ValidateArgs* args);

// Runs a parsed `validate`. Prints the report on stdout and errors on stderr.
int RunValidateCommand(const ValidateArgs& args);

}  // namespace griffin
