#include "cli/sql_command.h"

#include <chrono>
#include <cstdio>

#include <CLI/CLI.hpp>

#include "cli/exit_codes.h"
#include "cli/standard_streams.h"
#include "connectors/sql/pushdown_compiler.h"
#include "connectors/sql/sql_increment.h"
#include "connectors/sql/sql_uri.h"
#include "connectors/sql/where_sql.h"
#include "plan/plan.h"
#include "rules/rule_loader.h"
#include "rules/where_predicate.h"

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
  if (!args.where.empty()) RETURN_IF_ERROR(CheckWhereOption(args.where));
  // The filter as run: placeholders bound at run time (Spark SQL: values spelled inline).
  const std::optional<sql::SqlEngine> engine = sql::SqlEngineForScheme(dialect->name());
  ASSIGN_OR_RETURN(sql::WhereSql where, sql::CompileWhere(args.where.empty() ? rules.source.where : args.where,
                                                          *dialect, engine ? sql::BindingFor(*engine) : nullptr));
  source.where = where.sql;
  source.null_values = rules.source.null_values;  // string columns' null spellings are NULL, as at run time
  ASSIGN_OR_RETURN(sql::PushdownQuery query, sql::CompilePushdown(*plan, *dialect, source, args.max_violations));
  std::string script = sql::RenderPushdownScript(*plan, query, *dialect);
  std::string bound;
  for (size_t i = 0; i < where.params.size(); ++i)
    bound += (i ? ", " : "") + sql::Placeholder(*engine, static_cast<int>(i + 1)) + " = " +
             sql::DescribeParam(where.params[i]);
  for (char& c : bound)  // one comment line
    if (c == '\n' || c == '\r') c = ' ';
  if (!bound.empty()) script.insert(script.find('\n') + 1, "-- where's bound parameters: " + bound + "\n");
  return script;
}

}  // namespace

CLI::App* AddSqlCommand(CLI::App& app, SqlArgs* args) {
  CLI::App* cmd = app.add_subcommand("sql", "Print the SQL that --mode pushdown runs for a rule file");
  cmd->add_option("-r,--rules", args->rules_path, "The rule file (YAML, rules-v1)")->required();
  cmd->add_option("--dialect", args->dialect, "postgresql, sqlite, duckdb or spark")->capture_default_str();
  cmd->add_option("--table", args->table, "The table: name or schema.name (quoted for you)");
  cmd->add_option("--query", args->query, "A SELECT to validate instead of a table");
  cmd->add_option("--where", args->where,
                  "A condition on the rows, in Griffin's predicate language (docs/sql.md#where; overrides "
                  "source.where); its values are printed as placeholders and listed in a comment");
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
