// How one SQL dialect spells what the pushdown compiler (pushdown_compiler.h)
// needs: identifiers, literals, and the few functions whose names or
// semantics differ. A function a dialect cannot express with rules-v1's
// semantics exactly returns nullopt; the compiler then leaves that check to
// the engine (scan mode over its own columns) instead of approximating it.
//
//   const SqlDialect* dialect = FindSqlDialect("postgresql");
//   dialect->QuoteIdentifier("x; DROP TABLE y")   // "x; DROP TABLE y" (one name)
//
// Dialects: postgresql, sqlite, duckdb, spark (Spark SQL, for griffin.spark).
// Stateless singletons; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace griffin::sql {

class SqlDialect {
 public:
  virtual ~SqlDialect() = default;
  virtual const char* name() const = 0;

  // `name` as one identifier, whatever it holds (default: "..." with " doubled).
  virtual std::string QuoteIdentifier(std::string_view name) const;
  // `text` as a string literal; nullopt when the dialect cannot hold it (a NUL
  // byte in PostgreSQL). Default: '...' with ' doubled.
  virtual std::optional<std::string> StringLiteral(std::string_view text) const;
  // A double literal that reads back as exactly `value`; nullopt for a value
  // the dialect cannot write (NaN and ±inf in SQLite, which stores no NaN).
  virtual std::optional<std::string> DoubleLiteral(double value) const = 0;
  // A DATE literal for days since 1970-01-01 (the text is YYYY-MM-DD).
  virtual std::optional<std::string> DateLiteral(const std::string& iso_date) const;

  // `expr` (a double) is NaN; "" when the dialect's doubles cannot be NaN
  // (SQLite stores NaN as NULL).
  virtual std::string IsNan(const std::string& expr) const = 0;
  // `expr` (a double) is +inf or -inf.
  virtual std::string IsInfinite(const std::string& expr) const = 0;
  // The length of a string in Unicode code points.
  virtual std::string CharLength(const std::string& expr) const { return "CHAR_LENGTH(" + expr + ")"; }
  // `expr` compared byte by byte (min/max/distinct of strings, as the engine
  // compares them), where the dialect would otherwise use a locale collation.
  virtual std::string BytewiseString(const std::string& expr) const { return expr; }
  // RE2 semantics: the whole value matches / some part matches. Default: none.
  virtual std::optional<std::string> RegexFullMatch(const std::string& expr, const std::string& pattern) const;
  virtual std::optional<std::string> RegexContains(const std::string& expr, const std::string& pattern) const;
  // How many distinct tuples among rows where none of `exprs` is null;
  // nullopt when the dialect cannot count distinct tuples in one aggregate.
  virtual std::optional<std::string> CountDistinctTuples(const std::vector<std::string>& exprs) const = 0;
  // The exact sum of an integer column as decimal text (the engine sums
  // integers exactly, in 128 bits); nullopt when the dialect's SUM can
  // overflow or round (SQLite's SUM raises "integer overflow" past int64).
  virtual std::optional<std::string> ExactIntegerSumText(const std::string& expr) const = 0;
  // Each source row's id, `_griffin_row`, the report's `row`: default the
  // row's 0-based position in a plain SELECT (ROW_NUMBER() OVER () - 1).
  // Spark: monotonically_increasing_id(), the ids griffin.spark's native mode
  // gives (partition index * 2^33 + position; Spark has no unordered window).
  virtual std::string RowId() const { return "ROW_NUMBER() OVER () - 1"; }
  // Whether RowId's window hands rows on in the order it numbers them, in one
  // process, so a sample query may stop at its first violations (LIMIT
  // before ORDER BY) instead of sorting every violating row. PostgreSQL: yes
  // (its sessions run without synchronized scans, and the runner turns
  // parallel plans off for the samples); DuckDB's parallel executor: no.
  virtual bool RowIdsStream() const { return false; }
};

// The dialect called `name` (postgresql, postgres, sqlite, duckdb, spark), or null.
const SqlDialect* FindSqlDialect(std::string_view name);
// "postgresql, sqlite, duckdb, spark" for help and errors.
const char* SqlDialectNames();

}  // namespace griffin::sql
