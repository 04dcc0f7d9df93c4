// `source.where` / `--where` (rules/where_predicate.h) as SQL for one dialect:
// identifiers quoted by the dialect, every value a bound parameter.
//
//   ASSIGN_OR_RETURN(WhereSql where, CompileWhere("region = 'eu'", *FindSqlDialect("postgresql"),
//                                                 BindingFor(SqlEngine::kPostgresql)));
//   where.sql      // ("region" = $1)
//   where.params   // the literal 'eu'; WhereArrays(where.params, engine) binds it
//
// Without placeholders (`placeholder` null: the spark dialect, which runs in
// Spark SQL without an ADBC statement to bind to) each value is spelled by the
// dialect (SqlDialect::StringLiteral etc.): quoted, never spliced as written.
//
// Parameter types: text utf8, integers int64, other numbers float64, TRUE and
// FALSE boolean (SQLite: the integers 1 and 0, as SQLite stores them), DATE
// date32 (SQLite: its YYYY-MM-DD text, as SQLite stores dates). The database
// compares them by its own rules: PostgreSQL refuses a text value against a
// date column (write DATE '...'); LIKE's case rules are the database's.
//
// Errors: UsageError "where: at offset N: ..." for text outside the grammar
// (the rule loader and the CLI refuse it before any connection).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <arrow/array.h>

#include "connectors/sql/adbc_driver.h"
#include "connectors/sql/sql_dialect.h"
#include "rules/rule_set.h"
#include "util/status.h"

namespace griffin::sql {

struct WhereSql {
  std::string sql;                  // "" for no filter; else one parenthesized condition
  std::vector<Literal> params;      // placeholder n binds params[n - 1] (from `first`)
};

// The n-th placeholder (from 1) of a statement; null: spell values inline.
using Placeholders = std::function<std::string(int n)>;
Placeholders BindingFor(SqlEngine engine);

// `where` compiled; its placeholders are numbered from `first`.
Result<WhereSql> CompileWhere(const std::string& where, const SqlDialect& dialect, const Placeholders& placeholder,
                              int first = 1);

// InputError "<context>: where names column 'x', which the source does not
// have (it has: a, b)" unless every column `where` reads is in `columns` (the
// source's, as the database names them; SQLite and DuckDB match names without
// regard to case, PostgreSQL exactly). Checked before any row is read, since
// SQLite takes a quoted name it cannot find for a string and would filter
// every row out without a word.
Status CheckWhereColumns(const std::string& where, const std::vector<std::string>& columns, SqlEngine engine,
                         const std::string& context);

// The parameters as one-value arrays, in order, typed for `engine` as above.
arrow::ArrayVector WhereArrays(const std::vector<Literal>& params, SqlEngine engine);

// How a parameter reads in a printed script: 'eu', 3, TRUE, DATE '2026-12-01'.
std::string DescribeParam(const Literal& param);

}  // namespace griffin::sql
