#include "connectors/sql/sql_dialect.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace griffin::sql {
namespace {

// The shortest text that reads back as `value` (17 significant digits always do).
std::string RoundTripText(double value) {
  char buffer[32];
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", digits, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

std::string NotNullTuple(const std::vector<std::string>& exprs) {
  std::string text;
  for (const std::string& e : exprs) text += (text.empty() ? "" : " AND ") + e + " IS NOT NULL";
  return text;
}

std::string CommaList(const std::vector<std::string>& exprs) {
  std::string text;
  for (const std::string& e : exprs) text += (text.empty() ? "" : ", ") + e;
  return text;
}

class PostgresqlDialect : public SqlDialect {
 public:
  const char* name() const override { return "postgresql"; }
  // Text with a backslash is an escape string, E'...' with \ and ' doubled: it
  // reads the same whatever the session's standard_conforming_strings (a plain
  // '...' would take \' as an escaped quote where it is off).
  std::optional<std::string> StringLiteral(std::string_view text) const override {
    if (text.find('\0') != std::string_view::npos) return std::nullopt;  // text cannot hold NUL
    if (text.find('\\') == std::string_view::npos) return SqlDialect::StringLiteral(text);
    std::string literal = "E'";
    for (char c : text) {
      if (c == '\\' || c == '\'') literal += c;
      literal += c;
    }
    return literal + "'";
  }
  std::optional<std::string> DoubleLiteral(double value) const override {
    if (std::isnan(value)) return "'NaN'::float8";
    if (std::isinf(value)) return value > 0 ? "'Infinity'::float8" : "'-Infinity'::float8";
    return "'" + RoundTripText(value) + "'::float8";
  }
  // PostgreSQL orders NaN above every number and holds NaN = NaN.
  std::string IsNan(const std::string& expr) const override { return "(" + expr + " = 'NaN'::float8)"; }
  std::string IsInfinite(const std::string& expr) const override {
    return "(" + expr + " IN ('Infinity'::float8, '-Infinity'::float8))";
  }
  std::string BytewiseString(const std::string& expr) const override { return "(" + expr + " COLLATE \"C\")"; }
  bool RowIdsStream() const override { return true; }
  std::optional<std::string> CountDistinctTuples(const std::vector<std::string>& exprs) const override {
    if (exprs.size() == 1) return "COUNT(DISTINCT " + exprs[0] + ")";
    return "COUNT(DISTINCT CASE WHEN " + NotNullTuple(exprs) + " THEN ROW(" + CommaList(exprs) + ") END)";
  }
  std::optional<std::string> ExactIntegerSumText(const std::string& expr) const override {
    return "CAST(SUM(" + expr + ") AS TEXT)";
  }
};

class DuckdbDialect : public SqlDialect {
 public:
  const char* name() const override { return "duckdb"; }
  std::optional<std::string> DoubleLiteral(double value) const override {
    if (std::isnan(value)) return "CAST('nan' AS DOUBLE)";
    if (std::isinf(value)) return value > 0 ? "CAST('inf' AS DOUBLE)" : "CAST('-inf' AS DOUBLE)";
    return "CAST('" + RoundTripText(value) + "' AS DOUBLE)";
  }
  std::string IsNan(const std::string& expr) const override { return "isnan(" + expr + ")"; }
  std::string IsInfinite(const std::string& expr) const override { return "isinf(" + expr + ")"; }
  std::string CharLength(const std::string& expr) const override { return "length(" + expr + ")"; }
  // DuckDB's regular expressions are RE2's (its default options: see sql_dialect_test).
  std::optional<std::string> RegexFullMatch(const std::string& expr, const std::string& pattern) const override {
    auto literal = StringLiteral(pattern);
    if (!literal) return std::nullopt;
    return "regexp_full_match(" + expr + ", " + *literal + ")";
  }
  std::optional<std::string> RegexContains(const std::string& expr, const std::string& pattern) const override {
    auto literal = StringLiteral(pattern);
    if (!literal) return std::nullopt;
    return "regexp_matches(" + expr + ", " + *literal + ")";
  }
  std::optional<std::string> CountDistinctTuples(const std::vector<std::string>& exprs) const override {
    if (exprs.size() == 1) return "COUNT(DISTINCT " + exprs[0] + ")";
    return "COUNT(DISTINCT CASE WHEN " + NotNullTuple(exprs) + " THEN ROW(" + CommaList(exprs) + ") END)";
  }
  std::optional<std::string> ExactIntegerSumText(const std::string& expr) const override {
    return "CAST(SUM(" + expr + ") AS VARCHAR)";
  }
};

class SqliteDialect : public SqlDialect {
 public:
  const char* name() const override { return "sqlite"; }
  // SQLite stores NaN as NULL, so no column holds one; 9e999 reads as +inf.
  std::optional<std::string> DoubleLiteral(double value) const override {
    if (std::isnan(value)) return std::nullopt;
    if (std::isinf(value)) return value > 0 ? "9e999" : "-9e999";
    std::string text = RoundTripText(value);
    if (text.find_first_of(".eE") == std::string::npos) text += ".0";  // a REAL, not an INTEGER
    return text;
  }
  std::string IsNan(const std::string& expr) const override { return ""; }
  std::string IsInfinite(const std::string& expr) const override { return "(" + expr + " IN (9e999, -9e999))"; }
  std::string CharLength(const std::string& expr) const override { return "LENGTH(" + expr + ")"; }
  std::optional<std::string> DateLiteral(const std::string& iso_date) const override { return std::nullopt; }
  std::optional<std::string> CountDistinctTuples(const std::vector<std::string>& exprs) const override {
    if (exprs.size() == 1) return "COUNT(DISTINCT " + exprs[0] + ")";
    return std::nullopt;  // COUNT(DISTINCT a, b) is not SQLite
  }
  std::optional<std::string> ExactIntegerSumText(const std::string& expr) const override { return std::nullopt; }
};

// Spark SQL (griffin.spark): identifiers in backticks, backslash escapes in
// string literals (Spark's default, spark.sql.parser.escapedStringLiterals=false).
class SparkDialect : public SqlDialect {
 public:
  const char* name() const override { return "spark"; }
  std::string QuoteIdentifier(std::string_view name) const override {
    std::string quoted = "`";
    for (char c : name) {
      if (c == '`') quoted += '`';
      quoted += c;
    }
    return quoted + "`";
  }
  std::optional<std::string> StringLiteral(std::string_view text) const override {
    std::string quoted = "'";
    for (char c : text) {
      if (c == '\0') return std::nullopt;
      if (c == '\\' || c == '\'') quoted += '\\';
      quoted += c;
    }
    return quoted + "'";
  }
  std::optional<std::string> DoubleLiteral(double value) const override {
    if (std::isnan(value)) return "CAST('NaN' AS DOUBLE)";
    if (std::isinf(value)) return value > 0 ? "CAST('Infinity' AS DOUBLE)" : "CAST('-Infinity' AS DOUBLE)";
    return "CAST('" + RoundTripText(value) + "' AS DOUBLE)";
  }
  std::string IsNan(const std::string& expr) const override { return "isnan(" + expr + ")"; }
  std::string IsInfinite(const std::string& expr) const override {
    return "(" + expr + " IN (CAST('Infinity' AS DOUBLE), CAST('-Infinity' AS DOUBLE)))";
  }
  // COUNT(DISTINCT a, b) skips tuples holding a null, as rules-v1 does.
  std::optional<std::string> CountDistinctTuples(const std::vector<std::string>& exprs) const override {
    return "COUNT(DISTINCT " + CommaList(exprs) + ")";
  }
  std::optional<std::string> ExactIntegerSumText(const std::string& expr) const override {
    return "CAST(SUM(CAST(" + expr + " AS DECIMAL(38, 0))) AS STRING)";
  }
  std::string RowId() const override { return "monotonically_increasing_id()"; }
};

}  // namespace

std::string SqlDialect::QuoteIdentifier(std::string_view name) const {
  std::string quoted = "\"";
  for (char c : name) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::optional<std::string> SqlDialect::StringLiteral(std::string_view text) const {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') quoted += '\'';
    quoted += c;
  }
  return quoted + "'";
}

std::optional<std::string> SqlDialect::DateLiteral(const std::string& iso_date) const {
  return "DATE '" + iso_date + "'";
}

std::optional<std::string> SqlDialect::RegexFullMatch(const std::string&, const std::string&) const {
  return std::nullopt;
}
std::optional<std::string> SqlDialect::RegexContains(const std::string&, const std::string&) const {
  return std::nullopt;
}

const SqlDialect* FindSqlDialect(std::string_view name) {
  static const PostgresqlDialect postgresql;
  static const SqliteDialect sqlite;
  static const DuckdbDialect duckdb;
  static const SparkDialect spark;
  if (name == "postgresql" || name == "postgres") return &postgresql;
  if (name == "sqlite") return &sqlite;
  if (name == "duckdb") return &duckdb;
  if (name == "spark") return &spark;
  return nullptr;
}

const char* SqlDialectNames() { return "postgresql, sqlite, duckdb, spark"; }

}  // namespace griffin::sql
