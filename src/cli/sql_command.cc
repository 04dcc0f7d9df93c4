#include "cli/sql_command.h"

#include <chrono>
#include <cstdio>

#include <CLI/CLI.hpp>

#include "cli/exit_codes.h"
#include "cli/standard_streams.h"
#include "connectors/sql/pushdown_compiler.h"
#include "plan/plan.h"
#include "rules/rule_loader.h"

namespace griffin {
namespace {

Result<std::string> PushdownScript(const SqlArgs& args) {
  const sql::SqlDialect* dialect = sql::FindSqlDialect(args.dialect);
  if (!dialect)
    return Status::UsageError("--dialect: expected one of " + std::string(sql::SqlDialectNames()) + ", got '" +
                              args.dialect + "'");
  if (args.table.empty() == args.query.empty()) return Status::UsageError("give --table or --query, one of them");
  if (args.max_violations < 0) return Status::UsageError("--max-violations: must be 0 or more");
  ASSIGN_OR_RETURN(RuleSet rules, LoadRuleFile(args.rules_path));
  const int64_t now_micros = std::chrono::duration_cast<std::chrono::microseconds>(
                                 std::chrono::system_clock::now().time_since_epoch()).count();
  ASSIGN_OR_RETURN(auto plan, Plan::Compile(rules, now_micros));
  sql::PushdownSource source;
  source.from = args.query.empty() ? sql::DialectTableName(*dialect, args.table) : "(" + args.query + ") AS griffin_query";
  source.where = args.where.empty() ? rules.source.where : args.where;
  source.null_values = rules.source.null_values;  // string columns' null spellings are NULL, as at run time
  ASSIGN_OR_RETURN(sql::PushdownQuery query, sql::CompilePushdown(*plan, *dialect, source, args.max_violations));
  return sql::RenderPushdownScript(*plan, query, *dialect);
}

}  // namespace

CLI::App* AddSqlCommand(CLI::App& app, SqlArgs* args) {
  CLI::App* cmd = app.add_subcommand("sql", "Print the SQL that --mode pushdown runs for a rule file");
  cmd->add_option("-r,--rules", args->rules_path, "The rule file (YAML, rules-v1)")->required();
  cmd->add_option("--dialect", args->dialect, "postgresql, sqlite, duckdb or spark")->capture_default_str();
  cmd->add_option("--table", args->table, "The table: name or schema.name (quoted for you)");
  cmd->add_option("--query", args->query, "A SELECT to validate instead of a table");
  cmd->add_option("--where", args->where, "A SQL condition on the rows (overrides source.where)");
  cmd->add_option("--max-violations", args->max_violations, "The LIMIT of each sample query is this + 1")
      ->capture_default_str();
  cmd->footer(
      "\nWhat it prints: (1) one aggregate query computing, in one pass, every pushed check's\n"
      "evaluated and violation counts, the table metrics, the rows and the bad rows; (2) per\n"
      "row-level check, the query for its first violations in row order, run only when it fails;\n"
      "(3) the query whose rows the engine scans for the checks SQL cannot judge exactly.\n"
      "A comment per check says where it runs and why. Without a database every column is\n"
      "taken to be stored as its rule's type; at run time a column stored otherwise (text\n"
      "read as numbers, NUMERIC) sends its checks to the engine. docs/sql.md lists the rules.\n"
      "\nExamples:\n"
      "  griffin sql -r rules.yaml --dialect postgresql --table public.orders\n"
      "  griffin sql -r rules.yaml --dialect duckdb --query \"SELECT * FROM read_parquet('x.parquet')\"\n"
      "  griffin validate -r rules.yaml 'postgresql://me@db/app?table=public.orders' --mode pushdown\n");
  return cmd;
}

int RunSqlCommand(const SqlArgs& args) {
  Result<std::string> script = PushdownScript(args);
  if (!script.ok()) {
    std::fprintf(stderr, "griffin: %s\n", script.status().message().c_str());
    return ExitCodeFor(script.status());
  }
  const Status written = WriteWhole(stdout, *script, "standard output");
  if (!written.ok()) {
    std::fprintf(stderr, "griffin: %s\n", written.message().c_str());
    return kExitInput;
  }
  return kExitPassed;
}

}  // namespace griffin
